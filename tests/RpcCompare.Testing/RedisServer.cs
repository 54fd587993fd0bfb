using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace RpcCompare.Testing;

/// <summary>
/// A redis-server of the test's own, on a free loopback port, keeping nothing on disk; killed on
/// dispose. Tests that need it fail (not skip) when Redis is missing: <c>bash .ci/run</c> installs it.
/// </summary>
public sealed class RedisServer : IAsyncDisposable
{
    private readonly Process _process;
    private readonly TemporaryDirectory _directory;

    private RedisServer(Process process, TemporaryDirectory directory, int port)
    {
        _process = process;
        _directory = directory;
        Port = port;
    }

    public int Port { get; }

    /// <summary>The StackExchange.Redis configuration string that reaches it.</summary>
    public string Configuration => $"127.0.0.1:{Port.ToString(CultureInfo.InvariantCulture)}";

    public static async Task<RedisServer> StartAsync()
    {
        const string program = "/usr/bin/redis-server";
        if (!File.Exists(program))
        {
            throw new InvalidOperationException($"{program} is not installed; tests of push across replicas need it. `bash .ci/run` installs it (apt-get install redis-server), or install it by hand.");
        }

        var directory = new TemporaryDirectory("rc-redis-");
        var port = FreePort.OnLoopback();
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[] { "--bind", "127.0.0.1", "--port", port.ToString(CultureInfo.InvariantCulture), "--save", "", "--appendonly", "no", "--dir", directory.FullPath })
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        var server = new RedisServer(process, directory, port);
        try
        {
            await Eventually.HoldsAsync(server.AnswersPingAsync, TestTimeout.Default, () => $"redis-server on port {port} did not answer PING (exited: {process.HasExited}).");
            return server;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync().WaitAsync(TestTimeout.Default);
        }

        _process.Dispose();
        _directory.Dispose();
    }

    private async Task<bool> AnswersPingAsync()
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync("127.0.0.1", Port);
            var stream = client.GetStream();
            await stream.WriteAsync("PING\r\n"u8.ToArray());
            var answer = new byte[7];
            var read = await stream.ReadAsync(answer).AsTask().WaitAsync(TimeSpan.FromSeconds(2));
            return Encoding.ASCII.GetString(answer, 0, read).StartsWith("+PONG", StringComparison.Ordinal);
        }
        catch (Exception e) when (e is SocketException or IOException or TimeoutException)
        {
            return false;
        }
    }
}
