using System.Diagnostics;
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
    public async Task FastTcp_UnderAPidsLimit_RefusesWhatItHasNoThreadsFor_AndGoesOn()
    {
        // fast-tcp alone, so the open-file share (3,600 of 4,096) is above what the tasks allow (1,200 less 512 kept).
        await using var host = await HostContainer.StartAsync("--pids-limit", PidsLimit.ToString(System.Globalization.CultureInfo.InvariantCulture),
            "-e", "RpcCompare__Bindings=fast-tcp");
        var port = host.Published[8809];
        var started = await Podman.RunAsync("logs", host.Name);
        Assert.Contains("Binding fast-tcp takes at most 688 connections, not 3,600", started.Output, StringComparison.Ordinal);

        // More connections than the container has tasks, each connected and left silent (bounded: 1,400, 60 s).
        var sockets = new List<Socket>();
        try
        {
            var clock = Stopwatch.StartNew();
            while (sockets.Count < Flood && clock.Elapsed < TimeSpan.FromSeconds(60))
            {
                var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                sockets.Add(socket);
                await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, port)).Bounded();
            }

            Assert.Equal(Flood, sockets.Count);
            // The host refuses those past its limit: past 64 answered ones, closed from its side at once, while the others wait for their handshake.
            var closed = 0;
            var deadline = Stopwatch.StartNew();
            while (deadline.Elapsed < TimeSpan.FromSeconds(20))
            {
                closed = sockets.Count(static s => s.Poll(0, SelectMode.SelectRead) && (s.Available == 0));
                if (closed >= Flood - 688 - 64)
                {
                    break;
                }

                await Task.Delay(250);
            }

            Assert.InRange(closed, Flood - 688 - 64, Flood);
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
        await using var session = new RpcClientSession(RpcClientFactory.CreateDefault(new RpcClientOptions { Tls = host.Tls }), BindingNames.FastTcp, $"tcp://127.0.0.1:{port}");
        Assert.NotNull(await session.Get<IFileService>().PingAsync(new PingRequest()).Bounded());
    }
}
