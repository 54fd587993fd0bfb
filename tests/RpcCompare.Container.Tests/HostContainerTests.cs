using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Container.Tests;

/// <summary>
/// The host image built by docker/offline.sh (the same Dockerfile as with the standard images),
/// started with podman, called over every binding it serves from outside the container, stopped
/// with SIGTERM, and checked for leftovers.
/// </summary>
[Trait("Category", "Container")]
public sealed class HostContainerTests : IClassFixture<HostContainerTests.HostImage>
{
    private const string Image = "localhost/rpccompare/host:latest";

    public HostContainerTests(HostImage image)
    {
        Assert.True(image.BuildExitCode == 0, $"docker/offline.sh build failed:\n{image.BuildOutput}");
    }

    [Fact]
    public async Task Container_ServesEveryOperationThroughTheSharedVolume_AndStopsCleanly()
    {
        using var volume = new TemporaryDirectory("rpccompare-volume-");
        var name = "rpccompare-test-" + Guid.NewGuid().ToString("N")[..12];
        // The image's fixed TCP ports, published on free ports of this machine's loopback (as compose does on fixed ones).
        var published = new Dictionary<int, int> { [8808] = FreePort(), [8080] = FreePort(), [50051] = FreePort() };
        // The volume is also mounted at its own path, where the sockets are made: the WCF Unix-socket
        // transport dispatches on the socket's full path, so its clients must see the same path as
        // the server. Other clients would reach the sockets at any path.
        var started = await Podman.RunAsync(["run", "-d", "--name", name, "--label", "rpccompare-test=1",
            "--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096",
            "-v", $"{volume.FullPath}:/run/rpccompare:U", "-v", $"{volume.FullPath}:{volume.FullPath}", "-e", $"RpcCompare__SocketDirectory={volume.FullPath}",
            .. published.SelectMany(p => new[] { "-p", $"127.0.0.1:{p.Value}:{p.Key}" }), Image]);
        try
        {
            Assert.True(started.ExitCode == 0, started.Output);
            var endpoints = await EndpointsFile.WaitAsync(volume.PathFor("endpoints.json"), TimeSpan.FromSeconds(60));
            Assert.Equal(BindingNames.All, endpoints.Keys);
            Assert.Equal(volume.PathFor("pipes.sock"), endpoints[BindingNames.Pipes]);
            Assert.Equal("net.tcp://127.0.0.1:8808", endpoints[BindingNames.WcfNetTcp]);

            // Each binding's address seen from this side: socket paths through the volume, ports as published.
            var outside = new Dictionary<string, string>
            {
                [BindingNames.WcfNetTcp] = $"net.tcp://127.0.0.1:{published[8808]}",
                [BindingNames.WcfUds] = volume.PathFor("wcf-uds"),
                [BindingNames.WcfHttp] = $"http://127.0.0.1:{published[8080]}",
                [BindingNames.GrpcTcp] = $"http://127.0.0.1:{published[50051]}",
                [BindingNames.GrpcUds] = volume.PathFor("grpc.sock"),
                [BindingNames.Pipes] = volume.PathFor("pipes.sock"),
            };
            foreach (var (binding, address) in outside)
            {
                await CallEveryOperationAsync(binding, address);
            }

            var health = await Podman.RunAsync("healthcheck", "run", name);
            Assert.True(health.ExitCode == 0, $"health check failed: {health.Output}");

            var stopped = await Podman.RunAsync("stop", "--time", "20", name);
            Assert.True(stopped.ExitCode == 0, stopped.Output);
            var exitCode = await Podman.RunAsync("inspect", "--format", "{{.State.ExitCode}}", name);
            Assert.Equal("0", exitCode.Output.Trim());
            Assert.Empty(Directory.EnumerateFileSystemEntries(volume.FullPath));
        }
        finally
        {
            await Podman.RunAsync("rm", "-f", name);
        }

        var left = await Podman.RunAsync("ps", "-a", "--filter", $"name={name}", "--format", "{{.Names}}");
        Assert.Equal("", left.Output.Trim());
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static async Task CallEveryOperationAsync(string binding, string address)
    {
        // The client's limit equals the server's: the over-quota request below is refused explicitly on every binding.
        await using var session = new RpcClientSession(RpcClientFactory.CreateDefault(), binding, address);
        var files = session.Get<IFileService>();
        var shapes = session.Get<ICallShapeService>();
        var payloads = session.Get<IPayloadService>();

        Assert.NotNull(await files.PingAsync(new PingRequest()).Bounded());
        Assert.Equal(100, (await files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "files" }).Bounded()).Entries.Length);
        Assert.Equal(200, (await files.WriteAtAsync(new WriteAtRequest { Repeat = 2 }).Bounded()).BytesWritten);
        var refused = await Assert.ThrowsAsync<RpcServiceException>(() => files.ReadDirectoryAsync(new ReadDirectoryRequest { Path = "../../etc" })).Bounded();
        Assert.Equal(RpcErrorCode.PathRefused, refused.Code);

        await shapes.VoidCallAsync().Bounded();
        await shapes.TakeIntAsync(new IntMessage { Value = 1 }).Bounded();
        Assert.Equal(42, (await shapes.ReturnIntAsync().Bounded()).Value);
        Assert.Equal(42, (await shapes.IncrementAsync(new IntMessage { Value = 41 }).Bounded()).Value);
        await shapes.TakePointAsync(new PointMessage { X = 1, Y = 2, Z = 3, Weight = 4 }).Bounded();

        var data = new byte[100_000];
        new Random(7).NextBytes(data);
        Assert.Equal(data, (await payloads.EchoBytesAsync(new BytesMessage { Data = data }).Bounded()).Data);
        Assert.Equal(10_000_000, (await payloads.SendBytesAsync(new BytesMessage { Data = new byte[10_000_000] }).Bounded()).Length);
        Assert.Equal(3, (await payloads.SendRecordsAsync(new RecordsMessage { Records = [new(), new(), new()] }).Bounded()).Length);
        Assert.Equal(5, (await payloads.SendStringAsync(new StringMessage { Text = "héllo" }).Bounded()).Length);
        var quota = await Assert.ThrowsAsync<RpcServiceException>(() => payloads.SendBytesAsync(new BytesMessage { Data = new byte[20_000_000] })).Bounded();
        Assert.Equal((binding, RpcErrorCode.QuotaExceeded), (binding, quota.Code));
        Assert.Equal(42, (await shapes.IncrementAsync(new IntMessage { Value = 41 }).Bounded()).Value);
    }

    /// <summary>Builds the image once per test run; the local base images are reused when present.</summary>
    public sealed class HostImage : IAsyncLifetime
    {
        public int BuildExitCode { get; private set; }

        public string BuildOutput { get; private set; } = "";

        public async Task InitializeAsync() => (BuildExitCode, BuildOutput) = await Podman.BuildHostImageAsync();

        public Task DisposeAsync() => Task.CompletedTask;
    }
}
