using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace RpcCompare.Testing;

/// <summary>
/// A nats-server of the test's own with JetStream on, on a free loopback port, its streams in a
/// directory of its own (kept across <see cref="LoopbackServer.RestartAsync"/>, as a real server's disk is).
/// </summary>
public sealed class NatsServer : LoopbackServer
{
    private NatsServer()
        : base("/usr/sbin/nats-server", "nats-server")
    {
    }

    /// <summary>The URL that reaches it.</summary>
    public string Url => $"nats://127.0.0.1:{Port.ToString(CultureInfo.InvariantCulture)}";

    public static Task<NatsServer> StartAsync() => StartedAsync(new NatsServer());

    protected override IEnumerable<string> Arguments() =>
        ["--addr", "127.0.0.1", "--port", Port.ToString(CultureInfo.InvariantCulture), "--jetstream", "--store_dir", DataDirectory];

    // A NATS server greets every connection with INFO; JetStream is ready once that names it.
    protected override async Task<bool> AnswersAsync(NetworkStream connection)
    {
        var greeting = new byte[4096];
        var read = await connection.ReadAsync(greeting);
        var text = Encoding.ASCII.GetString(greeting, 0, read);
        return text.StartsWith("INFO ", StringComparison.Ordinal) && text.Contains("\"jetstream\":true", StringComparison.Ordinal);
    }
}
