using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Contracts;
using RpcCompare.Push;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// The pipes binding alone, registered as a host registers it (AddPipesBinding), over recording
/// services, with its log captured down to Debug: to see what the server does and says.
/// </summary>
internal sealed class TestPipeServer : IAsyncDisposable
{
    private readonly TemporaryDirectory _directory = new();
    private readonly ServiceProvider _services;

    // configurePush: when given, the host also serves publish/subscribe, with these settings.
    // registerContracts: what the host serves instead of the recording product services.
    public TestPipeServer(
        Action<PipesBindingOptions>? configure = null,
        IConfiguration? configuration = null,
        Action<PushOptions>? configurePush = null,
        Action<IServiceCollection>? registerContracts = null)
    {
        var collection = new ServiceCollection().AddLogging();
        Log.AddTo(collection);
        if (configurePush is not null)
        {
            collection.AddPushServices(configurePush);
        }

        if (registerContracts is null)
        {
            collection.AddSingleton<IFileService>(Services).AddSingleton<ICallShapeService>(Services).AddSingleton<IPayloadService>(Services);
        }
        else
        {
            registerContracts(collection);
        }

        collection.AddPipesBinding(configuration, o =>
        {
            o.Path = _directory.PathFor("pipes.sock");
            configure?.Invoke(o);
        });
        _services = collection.BuildServiceProvider();
        Server = _services.GetServices<IBindingServer>().Single();
    }

    public CapturedLog Log { get; } = new(LogLevel.Debug);

    public RecordingServices Services { get; } = new();

    public IBindingServer Server { get; }

    /// <summary>The host's topics, when it serves publish/subscribe.</summary>
    public TopicRegistry? Topics => _services.GetService<TopicRegistry>();

    public IHostedService Hosted => (IHostedService)Server;

    /// <summary>The socket path the options name (the address once started).</summary>
    public string Path => _directory.PathFor("pipes.sock");

    public string Directory => _directory.FullPath;

    public IEnumerable<IHostedService> HostedServices => _services.GetServices<IHostedService>();

    public static async Task<TestPipeServer> StartAsync(
        Action<PipesBindingOptions>? configure = null,
        Action<PushOptions>? configurePush = null,
        Action<IServiceCollection>? registerContracts = null)
    {
        var server = new TestPipeServer(configure, configurePush: configurePush, registerContracts: registerContracts);
        await server.Hosted.StartAsync(CancellationToken.None).Bounded();
        return server;
    }

    /// <summary>Waits for a line containing <paramref name="text"/> (the server logs from its connection tasks).</summary>
    public async Task<IReadOnlyList<string>> LoggedAsync(string text)
    {
        using var timeout = new CancellationTokenSource(TestTimeout.Default);
        while (Log.Matching(text).Count == 0)
        {
            await Task.Delay(10, timeout.Token);
        }

        return Log.Matching(text);
    }

    public async ValueTask DisposeAsync()
    {
        await _services.DisposeAsync();
        _directory.Dispose();
    }
}
