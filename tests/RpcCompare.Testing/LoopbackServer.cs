using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;

namespace RpcCompare.Testing;

/// <summary>
/// A server program of the test's own (redis-server, nats-server) on a free loopback port, with a
/// directory of its own; killed on dispose. Tests that need it fail (not skip) when the program is
/// missing: <c>bash .ci/run</c> installs it (tests/install-prerequisites.sh).
/// </summary>
public abstract class LoopbackServer : IAsyncDisposable
{
    private readonly string _program;
    private readonly TemporaryDirectory _directory;
    private Process? _process;

    protected LoopbackServer(string program, string package)
    {
        if (!File.Exists(program))
        {
            throw new InvalidOperationException($"{program} is not installed; tests of push across replicas need it. `bash .ci/run` installs it (apt-get install {package}), or install it by hand.");
        }

        _program = program;
        _directory = new TemporaryDirectory("rc-" + package + "-");
        Port = FreePort.OnLoopback();
    }

    public int Port { get; }

    /// <summary>Where the server keeps what it keeps; it survives <see cref="RestartAsync"/>.</summary>
    protected string DataDirectory => _directory.FullPath;

    /// <summary>
    /// Kills the server (as <c>kill -9</c> would) and starts it again on the same port, with what it kept
    /// on disk or (<paramref name="keepData"/> false) with nothing, as a server that lost its disk.
    /// </summary>
    public async Task RestartAsync(bool keepData = true)
    {
        await StopAsync();
        if (!keepData)
        {
            foreach (var entry in new DirectoryInfo(DataDirectory).EnumerateFileSystemInfos())
            {
                if (entry is DirectoryInfo directory)
                {
                    directory.Delete(recursive: true);
                }
                else
                {
                    entry.Delete();
                }
            }
        }

        await LaunchAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _directory.Dispose();
        GC.SuppressFinalize(this);
    }

    protected abstract IEnumerable<string> Arguments();

    /// <summary>Whether a fresh connection to the server gets the answer that says it is ready.</summary>
    protected abstract Task<bool> AnswersAsync(NetworkStream connection);

    /// <summary>Launches <paramref name="server"/> and waits until it answers; disposes it when it does not.</summary>
    protected static async Task<T> StartedAsync<T>(T server)
        where T : LoopbackServer
    {
        ArgumentNullException.ThrowIfNull(server);
        try
        {
            await server.LaunchAsync();
            return server;
        }
        catch
        {
            await server.DisposeAsync();
            throw;
        }
    }

    private async Task LaunchAsync()
    {
        var start = new ProcessStartInfo(_program) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in Arguments())
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        _process = process;
        // Nobody reads them: drain both so a chatty server never blocks on a full pipe.
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        await Eventually.HoldsAsync(AnswersOnPortAsync, TestTimeout.Default, () => $"{Path.GetFileName(_program)} on port {Port.ToString(CultureInfo.InvariantCulture)} did not answer (exited: {process.HasExited}).");
    }

    private async Task StopAsync()
    {
        if (_process is not { } process)
        {
            return;
        }

        _process = null;
        if (!process.HasExited)
        {
            process.Kill();
            await process.WaitForExitAsync().WaitAsync(TestTimeout.Default);
        }

        process.Dispose();
    }

    private async Task<bool> AnswersOnPortAsync()
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync("127.0.0.1", Port);
            return await AnswersAsync(client.GetStream()).WaitAsync(TimeSpan.FromSeconds(2));
        }
        catch (Exception e) when (e is SocketException or IOException or TimeoutException)
        {
            return false;
        }
    }
}
