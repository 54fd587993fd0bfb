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
[Collection(ContainerImages.Collection)]
public sealed class HostContainerTests
{
    public HostContainerTests(ContainerImages images)
    {
        images.AssertBuilt("host");
    }

    [Fact]
    public async Task Container_ServesEveryOperationThroughTheSharedVolume_AndStopsCleanly()
    {
        await using var host = await HostContainer.StartAsync();
        var volume = host.Volume;
        Assert.Equal(BindingNames.All, host.Endpoints.Keys);
        Assert.Equal(volume.PathFor("pipes.sock"), host.Endpoints[BindingNames.Pipes]);
        Assert.Equal("net.tcp://127.0.0.1:8808", host.Endpoints[BindingNames.WcfNetTcp]);
        // Secure by default: TLS on the TCP bindings, its certificate named in the endpoints file and published beside it.
        Assert.NotNull(host.Tls?.ServerCertificateThumbprint);
        Assert.Equal("https://127.0.0.1:50051", host.Endpoints[BindingNames.GrpcTcp]);
        Assert.True(File.Exists(volume.PathFor("tls-certificate.pem")));

        // Each binding's address seen from this side: socket paths through the volume, ports as published.
        var outside = new Dictionary<string, string>
        {
            [BindingNames.WcfNetTcp] = $"net.tcp://127.0.0.1:{host.Published[8808]}",
            [BindingNames.FastTcp] = $"tcp://127.0.0.1:{host.Published[8809]}",
            [BindingNames.WcfUds] = volume.PathFor("wcf-uds"),
            [BindingNames.WcfHttp] = $"https://127.0.0.1:{host.Published[8080]}",
            [BindingNames.GrpcTcp] = $"https://127.0.0.1:{host.Published[50051]}",
            [BindingNames.GrpcUds] = volume.PathFor("grpc.sock"),
            [BindingNames.FastUds] = volume.PathFor("fast.sock"),
            [BindingNames.Pipes] = volume.PathFor("pipes.sock"),
        };
        foreach (var (binding, address) in outside)
        {
            await CallEveryOperationAsync(binding, address, host.Tls);
        }

        // The image's HEALTHCHECK asks the standard gRPC health service.
        var health = await Podman.RunAsync("healthcheck", "run", host.Name);
        Assert.True(health.ExitCode == 0, $"health check failed: {health.Output}");

        var stopped = await Podman.RunAsync("stop", "--time", "20", host.Name);
        Assert.True(stopped.ExitCode == 0, stopped.Output);
        var exitCode = await Podman.RunAsync("inspect", "--format", "{{.State.ExitCode}}", host.Name);
        Assert.Equal("0", exitCode.Output.Trim());
        // Sockets, the endpoints file and the certificate beside it are gone; only the data root the test put on the volume stays.
        Assert.Equal([volume.PathFor("data")], Directory.EnumerateFileSystemEntries(volume.FullPath));

        await host.DisposeAsync();
        var left = await Podman.RunAsync("ps", "-a", "--filter", $"name={host.Name}", "--format", "{{.Names}}");
        Assert.Equal("", left.Output.Trim());
    }

    private static async Task CallEveryOperationAsync(string binding, string address, Bindings.Security.ClientTlsOptions? tls)
    {
        // The client's limit equals the server's: the over-quota request below is refused explicitly on every binding.
        await using var session = new RpcClientSession(RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = tls }), binding, address);
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
}
