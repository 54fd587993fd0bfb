using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.Container.Tests;

/// <summary>
/// A container's pids limit against fast-tcp's thread per connection. Past the limit the .NET runtime
/// cannot start a thread and ends the host ("Out of memory.", exit 139): three fleet replicas died so
/// under the push suite. The host must take no more connections than it has threads for and refuse the rest.
/// </summary>
[Trait("Category", "Container")]
[Collection(ContainerImages.Collection)]
public sealed class TaskLimitContainerTests
{
    private const int PidsLimit = 1_200;
    private const int Flood = 1_400;

    public TaskLimitContainerTests(ContainerImages images)
    {
        images.AssertBuilt("host");
    }

    [Fact]
    public async Task TheFastBindings_UnderAPidsLimit_ShareTheThreadsTheyHave_RefuseTheRest_AndGoOn()
    {
        // fast-tcp and fast-uds: each one's open-file share (1,548 of 4,096 files) is above what the tasks
        // allow (1,200 less 512 kept), and each alone would stay below the limit, the two together not.
        await using var host = await HostContainer.StartAsync("--pids-limit", PidsLimit.ToString(CultureInfo.InvariantCulture),
            "-e", "RpcCompare__Bindings=fast-tcp,fast-uds");
        var tcp = new IPEndPoint(IPAddress.Loopback, host.Published[8809]);
        var uds = new UnixDomainSocketEndPoint(host.Volume.PathFor("fast.sock"));
        var logs = "";
        await Eventually.HoldsAsync(async () => (logs = (await Podman.RunAsync("logs", host.Name)).Output).Contains("Binding fast-uds takes at most", StringComparison.Ordinal),
            TimeSpan.FromSeconds(30), () => logs);
        Assert.Contains("Binding fast-tcp takes at most 688 connections, not 1,548", logs, StringComparison.Ordinal);
        Assert.Contains("Binding fast-uds takes at most 688 connections, not 1,548", logs, StringComparison.Ordinal);

        // More connections than the container has tasks, half on each binding, connected and left silent (bounded: 1,400, 60 s).
        var sockets = new List<Socket>();
        var notAccepted = 0; // a Unix socket's backlog, full under the flood, refuses a connect at once (EAGAIN)
        try
        {
            var clock = Stopwatch.StartNew();
            for (var i = 0; i < Flood && clock.Elapsed < TimeSpan.FromSeconds(60); i++)
            {
                EndPoint endpoint = i % 2 == 0 ? tcp : uds;
                var socket = new Socket(endpoint.AddressFamily, SocketType.Stream, endpoint is IPEndPoint ? ProtocolType.Tcp : ProtocolType.Unspecified);
                sockets.Add(socket);
                try
                {
                    await socket.ConnectAsync(endpoint).Bounded();
                }
                catch (SocketException e) when (endpoint is UnixDomainSocketEndPoint && e.SocketErrorCode == SocketError.WouldBlock)
                {
                    notAccepted++;
                    socket.Dispose();
                    sockets.Remove(socket);
                }
            }

            Assert.Equal(Flood, sockets.Count + notAccepted);
            // At most 688 connections are served between them, and wait silently (for their TLS handshake or first
            // frame); the rest are answered with an error or closed at once, so the host has something to say on each.
            var answered = 0;
            await Eventually.HoldsAsync(() => (answered = notAccepted + sockets.Count(static s => s.Poll(0, SelectMode.SelectRead))) >= Flood - 688,
                TimeSpan.FromSeconds(30), () => $"{answered} of {Flood} connections refused, answered or closed by the host ({notAccepted} not accepted)");
            var state = await Podman.RunAsync("inspect", "--format", "{{.State.Running}}", host.Name);
            Assert.True(state.Output.Trim() == "true", $"the host died under {Flood} connections:\n{(await Podman.RunAsync("logs", "--tail", "20", host.Name)).Output}");
        }
        finally
        {
            foreach (var socket in sockets)
            {
                socket.Dispose();
            }
        }

        // Once the flood has gone, the host serves again.
        await using var session = new RpcClientSession(RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = host.Tls }), BindingNames.FastTcp, $"tcp://127.0.0.1:{host.Published[8809]}");
        Assert.NotNull(await session.Get<IFileService>().PingAsync(new PingRequest()).Bounded());
    }
}
