using System.Net.Sockets;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Tests.Hosting;

/// <summary>
/// A binding's own host, started and stopped with the RpcCompare host: it listens where its
/// options say, answers from the host's one implementation, says where it listens, and never
/// disposes what the host owns.
/// </summary>
public sealed class EmbeddedBindingServerTests : IAsyncDisposable
{
    private readonly CapturedLog _log = new();
    private ServiceProvider? _hostServices;

    [Fact]
    public async Task Started_ItListensOnALoopbackPort_AndAnswersFromTheHostsImplementation()
    {
        var binding = await StartGreeterAsync();

        var answer = await GetAsync(binding.Address!);

        Assert.Matches(@"^http://127\.0\.0\.1:\d+$", binding.Address);
        Assert.Equal("hello, kestrel", answer);
        Assert.Equal(1, _hostServices!.GetRequiredService<Greeter>().Calls);
    }

    [Fact]
    public async Task Started_ItLogsWhereItListens_Once()
    {
        var binding = await StartGreeterAsync();

        Assert.Equal(
            [$"Information RpcCompare.Bindings.Hosting.EmbeddedBindingServer: Binding greeter listening on {binding.Address}"],
            _log.Matching("Binding greeter listening on"));
    }

    [Theory]
    [InlineData("http://0.0.0.0:5000", "http://127.0.0.1:5000")]
    [InlineData("https://[::]:5001", "https://127.0.0.1:5001")]
    [InlineData("http://127.0.0.1:5002", "http://127.0.0.1:5002")]
    [InlineData("http://10.1.2.3:5003/", "http://10.1.2.3:5003")]
    public void AListenerOnEveryAddress_IsPublishedAsLoopback(string bound, string published)
    {
        Assert.Equal(published, global::RpcCompare.Bindings.Hosting.KestrelBindingServer.DialledAddress(bound));
    }

    [Fact]
    public async Task AListenerOnEveryAddress_WithoutTls_IsRefusedBeforeItListens()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => StartGreeterAsync(configure: o => o.ListenAddress = "0.0.0.0"));

        Assert.StartsWith("greeter would listen on 0.0.0.0 (Greeter:ListenAddress) without TLS.", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AListenAddressThatIsNoIpAddress_IsRefusedAtStart_NamingTheOption()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => StartGreeterAsync(configure: o => o.ListenAddress = "localhost"));

        Assert.Equal("Greeter:ListenAddress must be an IP address such as 127.0.0.1 or 0.0.0.0; got 'localhost'.", error.Message);
    }

    [Fact]
    public async Task TheEmbeddedHost_SendsNoServerHeader_AndIsStoppedOnlyByTheRpcCompareHost()
    {
        var binding = await StartGreeterAsync();
        using var http = new HttpClient();

        using var response = await http.GetAsync(new Uri(binding.Address!)).Bounded();

        Assert.Empty(response.Headers.Server);
        // Not the console lifetime, which would stop the binding on SIGTERM by itself.
        Assert.Equal("EmbeddedHostLifetime", binding.Host!.Services.GetRequiredService<IHostLifetime>().GetType().Name);
    }

    [Fact]
    public async Task Stopped_ItNoLongerListens_AndCleansUpOnce()
    {
        var binding = await StartGreeterAsync();
        var port = new Uri(binding.Address!).Port;

        await binding.StopAsync(CancellationToken.None).Bounded();

        Assert.Equal(1, binding.StoppedCalls);
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        var refused = await Assert.ThrowsAsync<SocketException>(async () => await socket.ConnectAsync("127.0.0.1", port).Bounded());
        Assert.Equal(SocketError.ConnectionRefused, refused.SocketErrorCode);
    }

    [Fact]
    public async Task Disposed_ItLeavesTheHostsImplementationAlone()
    {
        var binding = await StartGreeterAsync();
        await binding.StopAsync(CancellationToken.None).Bounded();

        await binding.DisposeAsync();
        await binding.DisposeAsync();

        var services = _hostServices!;
        _hostServices = null;
        var greeter = services.GetRequiredService<Greeter>();
        Assert.False(greeter.Disposed);
        await services.DisposeAsync();
        Assert.True(greeter.Disposed);
    }

    [Fact]
    public async Task ABindingOfSeveralHosts_StartsAndStopsEachInOrder_AndDialsTheFirst()
    {
        _hostServices = HostServices().AddSingleton<TwoHostBinding>().BuildServiceProvider();
        var binding = _hostServices.GetRequiredService<TwoHostBinding>();

        await binding.StartAsync(CancellationToken.None).Bounded();
        await binding.StopAsync(CancellationToken.None).Bounded();
        await binding.DisposeAsync();

        Assert.Equal("first", binding.Address);
        Assert.Equal(["first started", "second started", "first stopped", "second stopped"], binding.Events);
    }

    [Fact]
    public void Registered_ItsOptionsComeFromConfigurationThenCode_AndItIsOneHostedBindingServer()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["Greeter:ListenAddress"] = "0.0.0.0", ["Greeter:Name"] = "config" })
            .Build();
        _hostServices = HostServices()
            .AddEmbeddedBinding<GreeterBinding, GreeterBindingOptions>("Greeter", configuration, o => o.Name += "+code")
            .BuildServiceProvider();

        var binding = _hostServices.GetRequiredService<GreeterBinding>();

        Assert.Equal(("0.0.0.0", "config+code"), (binding.Options.ListenAddress, binding.Options.Name));
        Assert.Same(binding, Assert.Single(_hostServices.GetServices<IHostedService>()));
        Assert.Same(binding, Assert.Single(_hostServices.GetServices<IBindingServer>()));
    }

    [Fact]
    public void Registered_WithoutConfigurationOrCode_ItsOptionsAreTheDefaults()
    {
        _hostServices = HostServices().AddEmbeddedBinding<GreeterBinding, GreeterBindingOptions>("Greeter", null, null).BuildServiceProvider();

        var options = _hostServices.GetRequiredService<GreeterBinding>().Options;

        Assert.Equal(("127.0.0.1", "kestrel"), (options.ListenAddress, options.Name));
    }

    [Fact]
    public void NoServiceCollection_IsAProgrammingError()
    {
        Assert.Throws<ArgumentNullException>(() => EmbeddedBindingServiceCollectionExtensions.AddEmbeddedBinding<GreeterBinding, GreeterBindingOptions>(null!, "Greeter", null, null));
    }

    [Fact]
    public async Task PastItsConnectionLimit_ANewConnectionIsClosedAtOnce_AndCountedInOneSummary()
    {
        var binding = await StartGreeterAsync(configure: o => o.MaxConnections = 2);
        await using var first = await RawSocket.ConnectAsync(binding.Address!);
        await using var second = await RawSocket.ConnectAsync(binding.Address!);
        await using var third = await RawSocket.ConnectAsync(binding.Address!);
        await using var fourth = await RawSocket.ConnectAsync(binding.Address!);

        // Kestrel counts a connection when its first step runs on the thread pool, not in the order
        // they were accepted: on a busy machine the third may take a place and the first be refused.
        // Two of the four are closed, whichever; the other two stay open (well within the handshake timeout).
        var outcomes = await Task.WhenAll(new[] { first, second, third, fourth }.Select(s => s.ReadUntilClosedAsync(TimeSpan.FromSeconds(10))));
        Assert.Equal(2, outcomes.Count(o => o.Closed));
        await binding.StopAsync(CancellationToken.None).Bounded();

        Assert.Equal(["Information RpcCompare.Bindings.Hosting.EmbeddedBindingServer: Binding greeter takes at most 2 connections (Greeter:MaxConnections); handshake timeout 30 s, idle timeout 120 s"],
            _log.Matching("takes at most"));
        var summary = Assert.Single(_log.Matching("Binding greeter, last"));
        Assert.Matches(@"^Warning RpcCompare\.Bindings\.Hosting\.EmbeddedBindingServer: Binding greeter, last \d+ s: refused 2 connections past its limit of 2 \(Greeter:MaxConnections\) \(max_concurrent_connections_exceeded: 2\)$", summary);
        Assert.Empty(_log.Matching("rejected")); // Kestrel's own line per refused connection is kept out
    }

    [Fact]
    public async Task ARequestWhoseHeadersStall_IsClosedAfterTheHandshakeTimeout_AndCountedAsStalled()
    {
        var binding = await StartGreeterAsync(configure: o => o.HandshakeTimeout = TimeSpan.FromMilliseconds(500));
        await using var raw = await RawSocket.ConnectAsync(binding.Address!);
        await raw.SendAsync("GET / HTTP/1.1\r\nHost: x\r\n"u8.ToArray());

        Assert.True((await raw.ReadUntilClosedAsync(TestTimeout.Default)).Closed);
        await binding.StopAsync(CancellationToken.None).Bounded();

        Assert.Contains(_log.Matching("Binding greeter, last"), line => line.EndsWith(": closed 1 stalled (request_headers_timeout: 1)", StringComparison.Ordinal));
    }

    [Fact]
    public async Task AConnectionLimitBelowOne_IsRefusedAtStart_NamingTheSetting()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => StartGreeterAsync(configure: o => o.MaxConnections = 0));

        Assert.Equal("Greeter:MaxConnections must be positive; got 0.", error.Message);
    }

    public async ValueTask DisposeAsync()
    {
        if (_hostServices is not null)
        {
            // Stops and disposes the bindings the test started (the container owns them).
            foreach (var server in _hostServices.GetServices<IHostedService>())
            {
                await server.StopAsync(CancellationToken.None);
            }

            await _hostServices.DisposeAsync();
        }
    }

    private async Task<GreeterBinding> StartGreeterAsync(Action<GreeterBindingOptions>? configure = null)
    {
        _hostServices = HostServices().AddEmbeddedBinding<GreeterBinding, GreeterBindingOptions>("Greeter", null, configure).BuildServiceProvider();
        var binding = _hostServices.GetRequiredService<GreeterBinding>();
        await binding.StartAsync(CancellationToken.None).Bounded();
        return binding;
    }

    private IServiceCollection HostServices() =>
        new ServiceCollection()
            .AddLogging(logging => logging.AddProvider(_log))
            .AddRpcService<IGreeter, Greeter>();

    private static async Task<string> GetAsync(string address)
    {
        using var http = new HttpClient();
        return await http.GetStringAsync(new Uri(address)).Bounded();
    }
}
