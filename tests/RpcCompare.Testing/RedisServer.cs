using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace RpcCompare.Testing;

/// <summary>A redis-server of the test's own on a free loopback port, keeping nothing on disk.</summary>
public sealed class RedisServer : LoopbackServer
{
    private RedisServer()
        : base("/usr/bin/redis-server", "redis-server")
    {
    }

    /// <summary>The StackExchange.Redis configuration string that reaches it.</summary>
    public string Configuration => $"127.0.0.1:{Port.ToString(CultureInfo.InvariantCulture)}";

    public static Task<RedisServer> StartAsync() => StartedAsync(new RedisServer());

    protected override IEnumerable<string> Arguments() =>
        ["--bind", "127.0.0.1", "--port", Port.ToString(CultureInfo.InvariantCulture), "--save", "", "--appendonly", "no", "--dir", DataDirectory];

    protected override async Task<bool> AnswersAsync(NetworkStream connection)
    {
        await connection.WriteAsync("PING\r\n"u8.ToArray());
        var answer = new byte[7];
        var read = await connection.ReadAsync(answer);
        return Encoding.ASCII.GetString(answer, 0, read).StartsWith("+PONG", StringComparison.Ordinal);
    }
}
