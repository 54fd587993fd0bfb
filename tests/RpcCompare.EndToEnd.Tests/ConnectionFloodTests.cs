using System.Text;
using System.Text.RegularExpressions;
using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests;

/// <summary>
/// Floods of connections against the real host, one binding at a time: past its connection limit
/// a binding refuses, the other bindings serve throughout, the flooded one serves again once the
/// flood ends, the host's file descriptors come back, and the log holds one summary line per
/// interval rather than a line per connection. Loopback and Unix sockets only; every flood is
/// bounded in count, every wait in time; no assertion is on a duration.
/// </summary>
public sealed partial class ConnectionFloodTests
{
    private const int Limit = 12;
    private const int Flood = 40;

    // 2 s instead of 30 for a frame once started, on the bindings with frames of their own.
    private static readonly string[] s_shortFrameTimeouts = ["--Pipes:FrameTimeout", "00:00:02", "--FastUds:FrameTimeout", "00:00:02", "--FastTcp:FrameTimeout", "00:00:02"];

    // And for the handshake on the framework bindings (wcf-uds's reaches CoreWCF through UdsFramingListenOptions).
    private static readonly string[] s_shortTimeouts =
        [.. s_shortFrameTimeouts, .. new[] { "WcfNetTcp", "WcfUds", "WcfHttp", "GrpcTcp", "GrpcUds" }.SelectMany(section => new[] { $"--{section}:HandshakeTimeout", "00:00:02" })];

    // What Kestrel and CoreWCF write once per connection unless the host keeps them out.
    private static readonly string[] s_perConnectionLines =
        ["rejected because the maximum number of concurrent connections", "Unhandled exception while processing", "left a frame unfinished"];

    [Fact]
    public async Task AFloodPastEachBindingsLimit_IsRefused_WhileTheOthersServe_AndTheHostComesBack()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        // A refused pipes or fast client is told why when it sends its first frame, or closed after the
        // frame timeout when it sends nothing (as this flood does).
        await using var host = HostProcess.Start(["--endpoints-file", endpointsPath, "--socket-dir", directory.PathFor("s"),
            "--max-connections", $"{Limit}", .. s_shortFrameTimeouts]);
        var endpoints = await host.WaitForEndpointsAsync(endpointsPath);
        var network = endpoints.Keys.Where(b => b != BindingNames.InProc).ToList();
        using var factory = RpcClientFactory.CreateDefault();
        foreach (var binding in network)
        {
            await host.WaitForOutputAsync($"Binding {binding} takes at most {Limit} connections");
            Assert.Null(await PingAsync(factory, binding, endpoints[binding])); // warm: lazily made parts exist before the baseline
        }

        var baseline = OpenSockets(host.Id);
        foreach (var flooded in network)
        {
            var raw = new List<RawSocket>();
            try
            {
                for (var i = 0; i < Flood; i++)
                {
                    raw.Add(await RawSocket.ConnectAsync(RawAddress(flooded, endpoints[flooded])));
                }

                // The limit's worth stay open (less the factory's pooled connection, if it keeps one); the rest are closed by the server.
                var closed = (await Task.WhenAll(raw.Select(r => r.ReadUntilClosedAsync(TimeSpan.FromSeconds(6))))).Count(r => r.Closed);
                Assert.True(closed >= Flood - Limit, $"{flooded}: {closed} of {Flood} connections closed with a limit of {Limit}\n{host.Output}");
                Assert.True(closed < Flood, $"{flooded}: every connection was closed, the limit's worth included");

                // A well-behaved client of every other binding is served during the flood.
                foreach (var other in network.Where(b => b != flooded))
                {
                    Assert.Null(await PingAsync(factory, other, endpoints[other]));
                }
            }
            finally
            {
                foreach (var socket in raw)
                {
                    await socket.DisposeAsync();
                }
            }

            // Once the flood is gone, the binding serves again.
            await Eventually.HoldsAsync(async () => await PingAsync(factory, flooded, endpoints[flooded]) is null, RecoveryTimeout, () => $"{flooded} serves again after the flood\n{host.Output}");
        }

        // Sockets, not every descriptor: the host maps assemblies it loads later, two descriptors each.
        await Eventually.HoldsAsync(() => OpenSockets(host.Id) <= baseline + 2, RecoveryTimeout, () => $"open sockets back to the baseline of {baseline} (now {OpenSockets(host.Id)})\n{host.Output}");

        // Stopping writes the last summaries; each binding's refusals are in a few lines, not one per connection.
        Assert.Equal(0, await host.TerminateAsync());
        var output = host.Output;
        foreach (var binding in network)
        {
            var summaries = Summaries(output, binding);
            Assert.True(summaries.Count is > 0 and <= 3, $"{binding}: {summaries.Count} summary lines\n{output}");
            Assert.True(RefusedIn(summaries) >= Flood - Limit, $"{binding}: refusals counted {RefusedIn(summaries)}\n{string.Join('\n', summaries)}");
            Assert.Contains($"past its limit of {Limit} (", summaries[0], StringComparison.Ordinal);
        }

        Assert.All(s_perConnectionLines, line => Assert.DoesNotContain(line, output, StringComparison.Ordinal));
    }

    [Fact]
    public async Task AConnectionThatSendsPartOfAHandshakeAndStalls_IsClosed_OnEveryBinding()
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        await using var host = HostProcess.Start(["--endpoints-file", endpointsPath, "--socket-dir", directory.PathFor("s"), .. s_shortTimeouts]);
        var endpoints = await host.WaitForEndpointsAsync(endpointsPath);
        var network = endpoints.Keys.Where(b => b != BindingNames.InProc).ToList();

        var stalled = new List<(string Binding, RawSocket Socket)>();
        foreach (var binding in network)
        {
            var socket = await RawSocket.ConnectAsync(RawAddress(binding, endpoints[binding]));
            await socket.SendAsync(PartialHandshake(binding));
            stalled.Add((binding, socket));
        }

        // Bounded well past the 2-s timeouts, for a busy machine.
        var closed = await Task.WhenAll(stalled.Select(async s => (s.Binding, (await s.Socket.ReadUntilClosedAsync(TimeSpan.FromSeconds(90))).Closed)));
        foreach (var (_, socket) in stalled)
        {
            await socket.DisposeAsync();
        }

        Assert.All(closed, c => Assert.True(c.Closed, $"{c.Binding} kept a stalled handshake open"));
        Assert.Equal(0, await host.TerminateAsync());
        foreach (var binding in network)
        {
            Assert.Contains(Summaries(host.Output, binding), line => line.Contains("closed 1 stalled", StringComparison.Ordinal));
        }

        Assert.All(s_perConnectionLines, line => Assert.DoesNotContain(line, host.Output, StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("slow senders")]
    [InlineData("garbage")]
    public async Task AFloodOfMisbehavingClientsPastEachBindingsLimit_IsClosed_WhileTheOthersServe_AndTheHostComesBack(string kind)
    {
        using var directory = new TemporaryDirectory();
        var endpointsPath = directory.PathFor("endpoints.json");
        await using var host = HostProcess.Start(["--endpoints-file", endpointsPath, "--socket-dir", directory.PathFor("s"), "--max-connections", $"{Limit}", .. s_shortTimeouts]);
        var endpoints = await host.WaitForEndpointsAsync(endpointsPath);
        var network = endpoints.Keys.Where(b => b != BindingNames.InProc).ToList();
        using var factory = RpcClientFactory.CreateDefault();
        foreach (var binding in network)
        {
            await host.WaitForOutputAsync($"Binding {binding} takes at most {Limit} connections");
        }

        foreach (var flooded in network)
        {
            // A slow sender keeps sending one byte of a valid first message every 200 ms, so no idle
            // timeout fires: only a deadline on the whole handshake (or frame) can end it. A garbage
            // sender sends 4 KB that are not the protocol at once.
            var address = RawAddress(flooded, endpoints[flooded]);
            var senders = Enumerable.Range(0, MisbehavingClients)
                .Select(_ => kind == "garbage" ? GarbageSendAsync(address) : SlowSendAsync(address, SlowFirstMessage(flooded))).ToList();

            // A well-behaved client of every other binding is served during the flood.
            foreach (var other in network.Where(b => b != flooded))
            {
                Assert.Null(await PingAsync(factory, other, endpoints[other]));
            }

            var outcomes = await Task.WhenAll(senders);
            Assert.All(outcomes, o => Assert.True(o.Closed && o.Sent <= o.Length && (kind == "garbage" || o.Sent < o.Length),
                $"{flooded}: a client sending {kind} {(o.Closed ? "was closed only after" : "was still open after")} sending {o.Sent} of {o.Length} bytes\n{host.Output}"));

            // Once the flood is gone, the binding serves again.
            await Eventually.HoldsAsync(async () => await PingAsync(factory, flooded, endpoints[flooded]) is null, RecoveryTimeout, () => $"{flooded} serves again after the flood\n{host.Output}");
        }

        Assert.Equal(0, await host.TerminateAsync());
        foreach (var binding in network)
        {
            // CoreWCF's framing closes a connection whose first bytes are garbage without telling the
            // host (no exception reaches the listener's middleware): wcf-nettcp and wcf-uds count only
            // the connections refused past the limit, which garbage, closed at once, rarely reaches.
            var counted = kind != "garbage" || binding is not (BindingNames.WcfNetTcp or BindingNames.WcfUds);
            var summaries = Summaries(host.Output, binding);
            Assert.True(summaries.Count <= 3 && (summaries.Count > 0 || !counted), $"{binding}: {summaries.Count} summary lines\n{host.Output}");
        }

        Assert.All(s_perConnectionLines, line => Assert.DoesNotContain(line, host.Output, StringComparison.Ordinal));
    }

    private const int MisbehavingClients = Limit + 4;

    /// <summary>Connects, sends 4 KB that are no protocol's first message, and waits (bounded) for the server to close.</summary>
    private static async Task<(bool Closed, int Sent, int Length)> GarbageSendAsync(string address)
    {
        await using var socket = await RawSocket.ConnectAsync(address);
        var garbage = RawSocket.Garbage(4096);
        await socket.SendAsync(garbage);
        return ((await socket.ReadUntilClosedAsync(TimeSpan.FromSeconds(90))).Closed, garbage.Length, garbage.Length);
    }

    /// <summary>
    /// Connects and sends <paramref name="message"/> one byte at a time, 200 ms apart, until the server
    /// closes the connection or the message is sent; then waits (bounded) for the close.
    /// </summary>
    private static async Task<(bool Closed, int Sent, int Length)> SlowSendAsync(string address, byte[] message)
    {
        await using var socket = await RawSocket.ConnectAsync(address);
        var closing = socket.ReadUntilClosedAsync(TimeSpan.FromSeconds(90));
        var sent = 0;
        while (sent < message.Length && !closing.IsCompleted)
        {
            await socket.SendAsync(message[sent..(sent + 1)]);
            sent++;
            await Task.WhenAny(closing, Task.Delay(TimeSpan.FromMilliseconds(200)));
        }

        return ((await closing).Closed, closing.IsCompleted && sent < message.Length ? sent : message.Length, message.Length);
    }

    /// <summary>A valid start of each protocol's first message, long enough that sending it byte by byte outlasts the 2-s deadlines many times over.</summary>
    private static byte[] SlowFirstMessage(string binding) => binding switch
    {
        // .NET message framing: version, duplex mode, then a via record of 128 characters.
        BindingNames.WcfNetTcp or BindingNames.WcfUds => [0x00, 0x01, 0x00, 0x01, 0x02, 0x02, 0x80, 0x01, .. Enumerable.Repeat((byte)'a', 128)],
        BindingNames.WcfHttp => Encoding.ASCII.GetBytes("POST /rpccompare.v1.FileService HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + new string('a', 100)),
        // The HTTP/2 connection preface, then an empty SETTINGS frame.
        BindingNames.GrpcTcp or BindingNames.GrpcUds => [.. Encoding.ASCII.GetBytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), 0, 0, 0, 4, 0, 0, 0, 0, 0],
        // A Bind frame (kind 9) with a 100-byte body: its length counts the 8 header bytes after it.
        BindingNames.FastUds or BindingNames.FastTcp => [108, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, .. Enumerable.Repeat((byte)0, 100)],
        // A frame header announcing 100 bytes (code 1), then its body.
        _ => [100, 0, 0, 0, 1, .. Enumerable.Repeat((byte)0, 100)],
    };

    /// <summary>The start of each protocol's first message, cut short.</summary>
    private static byte[] PartialHandshake(string binding) => binding switch
    {
        // .NET message framing: version record (0x00, major 1, minor 0), then the mode record's type only.
        BindingNames.WcfNetTcp or BindingNames.WcfUds => [0x00, 0x01, 0x00, 0x01],
        BindingNames.WcfHttp => Encoding.ASCII.GetBytes("POST /rpccompare.v1.FileService HTTP/1.1\r\nHost: 127.0.0.1\r\n"),
        // Half of the HTTP/2 connection preface.
        BindingNames.GrpcTcp or BindingNames.GrpcUds => Encoding.ASCII.GetBytes("PRI * HTTP/2.0\r\n"),
        // The start of a frame header (pipes' is 5 bytes, the fast bindings' 12).
        _ => [0x10, 0x00],
    };

    /// <summary>Where a raw socket reaches the binding: its address, or for wcf-uds (a directory of sockets) one contract's socket.</summary>
    private static string RawAddress(string binding, string address) =>
        binding == BindingNames.WcfUds ? Directory.GetFiles(address).Order(StringComparer.Ordinal).First() : address;

    /// <summary>Null when the binding answered a ping, else the error the client reported.</summary>
    private static async Task<string?> PingAsync(RpcClientFactory factory, string binding, string address)
    {
        IFileService? client = null;
        try
        {
            // A WCF client opens its channel here, so a refusal can come from creating it.
            client = factory.Create<IFileService>(binding, address);
            await client.PingAsync(new PingRequest()).WaitAsync(TimeSpan.FromSeconds(20));
            return null;
        }
        catch (Exception exception)
        {
            // Whatever the client raised (a WCF client reports a refused connection as WCF does), as text.
            return $"{exception.GetType().Name}: {exception.Message}";
        }
        finally
        {
            if (client is not null)
            {
                await RpcClientFactory.ReleaseAsync(client);
            }
        }
    }

    // Only fails a binding that never comes back.
    private static readonly TimeSpan RecoveryTimeout = TimeSpan.FromSeconds(60);

    private static int OpenSockets(int processId) =>
        Directory.GetFiles($"/proc/{processId}/fd").Count(fd => new FileInfo(fd).LinkTarget?.StartsWith("socket:", StringComparison.Ordinal) == true);

    private static List<string> Summaries(string output, string binding) =>
        [.. output.Split('\n').Select(l => l.Trim()).Where(l => l.StartsWith($"Binding {binding}, last ", StringComparison.Ordinal))];

    private static long RefusedIn(IEnumerable<string> summaries) =>
        summaries.Select(l => RefusedCount().Match(l)).Where(m => m.Success).Sum(m => long.Parse(m.Groups[1].Value.Replace(",", "", StringComparison.Ordinal), System.Globalization.CultureInfo.InvariantCulture));

    [GeneratedRegex(@"refused ([\d,]+) connections? past")]
    private static partial Regex RefusedCount();
}
