using System.Buffers.Binary;
using System.IO.Pipes;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// A stand-in pipes server that answers as a test scripts it (garbage, a reply cut short, a
/// connection closed), to see what the clients make of a server gone wrong. Each connection runs
/// the script given for its turn (the last one for any later connection).
/// </summary>
internal sealed class ScriptedPipeServer : IAsyncDisposable
{
    private readonly TemporaryDirectory _directory = new();
    private readonly Func<int, NamedPipeServerStream, Task> _script;
    private readonly CancellationTokenSource _stopping = new();
    private readonly List<Task> _connections = [];
    private readonly Task _acceptLoop;
    private int _accepted;

    private ScriptedPipeServer(Func<int, NamedPipeServerStream, Task> script)
    {
        _script = script;
        Path = _directory.PathFor("scripted.sock");
        // Two instances, as the real server holds: the socket stays bound between connections.
        var first = CreateInstance();
        _acceptLoop = AcceptLoopAsync(first);
    }

    public string Path { get; }

    /// <summary>Connections accepted so far.</summary>
    public int Accepted => Volatile.Read(ref _accepted);

    /// <summary>Runs <paramref name="script"/> for each connection, given its number (1 for the first).</summary>
    public static ScriptedPipeServer Start(Func<int, NamedPipeServerStream, Task> script) => new(script);

    /// <summary>Reads one request frame; null when the client closed first.</summary>
    public static async Task<(byte Code, byte[] Body)?> ReadRequestAsync(Stream stream)
    {
        var header = new byte[5];
        var read = 0;
        while (read < header.Length)
        {
            var more = await stream.ReadAsync(header.AsMemory(read)).AsTask().Bounded();
            if (more == 0)
            {
                return null;
            }

            read += more;
        }

        var body = new byte[BinaryPrimitives.ReadUInt32LittleEndian(header)];
        await stream.ReadExactlyAsync(body).AsTask().Bounded();
        return (header[4], body);
    }

    /// <summary>Completes when the client closes its end.</summary>
    public static async Task WaitForCloseAsync(Stream stream)
    {
        var buffer = new byte[256];
        try
        {
            while (await stream.ReadAsync(buffer).AsTask().Bounded() > 0)
            {
            }
        }
        catch (IOException)
        {
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        await _acceptLoop;
        Task[] running;
        lock (_connections)
        {
            running = [.. _connections];
        }

        await Task.WhenAll(running).WaitAsync(TestTimeout.Default).ContinueWith(_ => { }, TaskScheduler.Default);
        _stopping.Dispose();
        _directory.Dispose();
    }

    /// <summary>Waits until the connection scripts started so far have all finished.</summary>
    public async Task WhenScriptsFinishedAsync()
    {
        Task[] running;
        lock (_connections)
        {
            running = [.. _connections];
        }

        await Task.WhenAll(running).Bounded();
    }

    private async Task AcceptLoopAsync(NamedPipeServerStream waiting)
    {
        await Task.Yield();
        var spare = CreateInstance();
        try
        {
            while (true)
            {
                await waiting.WaitForConnectionAsync(_stopping.Token);
                var number = Interlocked.Increment(ref _accepted);
                var connection = waiting;
                lock (_connections)
                {
                    _connections.Add(RunAsync(number, connection));
                }

                (waiting, spare) = (spare, CreateInstance());
            }
        }
        catch (OperationCanceledException)
        {
        }
        finally
        {
            await waiting.DisposeAsync();
            await spare.DisposeAsync();
        }
    }

    private async Task RunAsync(int number, NamedPipeServerStream stream)
    {
        await using (stream)
        {
            try
            {
                await _script(number, stream);
            }
            catch (IOException)
            {
                // The client went away first; what it saw is the test's business.
            }
        }
    }

    private NamedPipeServerStream CreateInstance() =>
        new(Path, PipeDirection.InOut, NamedPipeServerStream.MaxAllowedServerInstances, PipeTransmissionMode.Byte, PipeOptions.Asynchronous);
}
