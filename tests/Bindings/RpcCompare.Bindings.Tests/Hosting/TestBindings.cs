using System.ServiceModel;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using RpcCompare.Bindings.Hosting;
using RpcCompare.Bindings.Limits;

namespace RpcCompare.Bindings.Tests.Hosting;

[ServiceContract]
public interface IGreeter
{
    [OperationContract]
    string Greet(string name);
}

/// <summary>The host's implementation: counts its calls and whether anyone disposed it.</summary>
public sealed class Greeter : IGreeter, IDisposable
{
    private int _calls;

    public int Calls => _calls;

    public bool Disposed { get; private set; }

    public string Greet(string name)
    {
        Interlocked.Increment(ref _calls);
        return $"hello, {name}";
    }

    public void Dispose() => Disposed = true;
}

public sealed class GreeterBindingOptions : FrameworkConnectionOptions
{
    public string ListenAddress { get; set; } = "127.0.0.1";

    public string Name { get; set; } = "kestrel";
}

/// <summary>The smallest Kestrel binding: GET / answers with the served contract's implementation.</summary>
public sealed class GreeterBinding(IServiceProvider hostServices, IOptions<GreeterBindingOptions> options) : KestrelBindingServer(hostServices)
{
    public override string Name => "greeter";

    public GreeterBindingOptions Options => options.Value;

    /// <summary>The embedded host, as the base class hands it over once it listens.</summary>
    public IHost? Host { get; private set; }

    public int StoppedCalls { get; private set; }

    protected override (FrameworkConnectionOptions Options, string Section) Connections => (Options, "Greeter");

    protected override void ConfigureKestrel(KestrelServerOptions options) =>
        options.Listen(CheckedListenAddress(Options.ListenAddress, "Greeter:ListenAddress"), 0);

    protected override void ConfigureServices(IServiceCollection services)
    {
    }

    protected override void Configure(WebApplication application) =>
        application.MapGet("/", (IGreeter greeter) => greeter.Greet(Options.Name));

    protected override string BoundAddress(IHost host)
    {
        Host = host;
        return ListeningUrl(host);
    }

    protected override void OnStopped() => StoppedCalls++;
}

/// <summary>A binding of two generic hosts (as a framework serving one listener per host has), each recording its life.</summary>
public sealed class TwoHostBinding(IServiceProvider hostServices) : EmbeddedBindingServer(hostServices)
{
    public List<string> Events { get; } = [];

    public override string Name => "two-hosts";

    protected override (FrameworkConnectionOptions Options, string Section) Connections => (new GreeterBindingOptions(), "TwoHosts");

    protected override IReadOnlyList<IHost> Build() => [Host("first"), Host("second")];

    protected override string BoundAddress(IHost host) => host.Services.GetRequiredService<Recorder>().Label;

    private IHost Host(string label)
    {
        var builder = Microsoft.Extensions.Hosting.Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        AddHostServices(builder.Services);
        builder.Services.AddSingleton(new Recorder(label, Events));
        builder.Services.AddHostedService(sp => sp.GetRequiredService<Recorder>());
        return builder.Build();
    }

    public sealed class Recorder(string label, List<string> events) : IHostedService
    {
        public string Label => label;

        public Task StartAsync(CancellationToken cancellationToken)
        {
            events.Add($"{label} started");
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken)
        {
            events.Add($"{label} stopped");
            return Task.CompletedTask;
        }
    }
}
