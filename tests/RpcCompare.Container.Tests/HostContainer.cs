using RpcCompare.Bindings;
using RpcCompare.Testing;

namespace RpcCompare.Container.Tests;

/// <summary>
/// The host image running under podman with its socket directory and data root on a volume (a
/// temporary directory of this machine) and its TCP ports published on free loopback ports.
/// </summary>
internal sealed class HostContainer : IAsyncDisposable
{
    public const string Image = "localhost/rpccompare/host:latest";

    private bool _disposed;

    private HostContainer(string name, TemporaryDirectory volume, IReadOnlyDictionary<int, int> published, HostEndpoints endpoints)
    {
        Name = name;
        Volume = volume;
        Published = published;
        Endpoints = endpoints.Addresses;
        Tls = endpoints.ClientTls;
    }

    public string Name { get; }

    /// <summary>Mounted at /run/rpccompare and at its own path, in this container and in client containers.</summary>
    public TemporaryDirectory Volume { get; }

    /// <summary>Container port to the loopback port it is published on.</summary>
    public IReadOnlyDictionary<int, int> Published { get; }

    /// <summary>The endpoints file the host wrote, as seen inside its network namespace.</summary>
    public IReadOnlyDictionary<string, string> Endpoints { get; }

    /// <summary>The trust in the host's certificate the endpoints file gives (the image runs with TLS on).</summary>
    public Bindings.Security.ClientTlsOptions? Tls { get; }

    /// <summary>The podman run arguments that give another container the host's view: its network namespace and the volume at both paths.</summary>
    public string[] ShareWith => ["--network", $"container:{Name}", "-v", $"{Volume.FullPath}:/run/rpccompare", "-v", $"{Volume.FullPath}:{Volume.FullPath}"];

    /// <param name="runArguments">More podman run arguments (limits, -e settings), placed before the image.</param>
    public static async Task<HostContainer> StartAsync(params string[] runArguments)
    {
        var volume = new TemporaryDirectory("rpccompare-volume-");
        var name = "rpccompare-test-" + Guid.NewGuid().ToString("N")[..12];
        // The image's fixed TCP ports, published on free ports of this machine's loopback (as compose does on fixed ones).
        var published = new Dictionary<int, int> { [8808] = FreePort.OnLoopback(), [8809] = FreePort.OnLoopback(), [8080] = FreePort.OnLoopback(), [50051] = FreePort.OnLoopback() };
        // The volume is also mounted at its own path, where the sockets are made: the WCF Unix-socket
        // transport dispatches on the socket's full path, so its clients must see the same path as
        // the server. Other clients would reach the sockets at any path. The data root is on the
        // volume too, so an inproc client outside sees the host's files.
        var started = await Podman.RunAsync(["run", "-d", "--name", name, "--label", "rpccompare-test=1", .. Podman.Limits,
            "-v", $"{volume.FullPath}:/run/rpccompare:U", "-v", $"{volume.FullPath}:{volume.FullPath}",
            "-e", $"RpcCompare__SocketDirectory={volume.FullPath}", "-e", $"DataRoot__Path={volume.PathFor("data")}",
            .. published.SelectMany(p => new[] { "-p", $"127.0.0.1:{p.Value}:{p.Key}" }), .. runArguments, Image]);
        var container = new HostContainer(name, volume, published, new HostEndpoints(new Dictionary<string, string>()));
        try
        {
            Assert.True(started.ExitCode == 0, started.Output);
            var endpoints = await EndpointsFile.WaitAsync(volume.PathFor("endpoints.json"), TimeSpan.FromSeconds(60));
            return new HostContainer(name, volume, published, endpoints);
        }
        catch
        {
            await container.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        // -v: the image's state volume (its certificate) goes with the container.
        await Podman.RunAsync("rm", "-f", "-v", Name);
        Volume.Dispose();
    }
}
