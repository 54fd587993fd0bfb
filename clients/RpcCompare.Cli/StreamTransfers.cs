using System.Diagnostics;
using RpcCompare.Service;

namespace RpcCompare.Cli;

/// <summary>
/// The streamed operations as rpcc runs them: bytes moved without keeping them, and what the move
/// cost here (wall time, MB/s, this process's peak resident memory: flat however long the stream).
/// </summary>
internal static class StreamTransfers
{
    public static async Task<object?> ReceiveAsync(Func<Task<Stream>> call)
    {
        var clock = Stopwatch.StartNew();
        var stream = await call().ConfigureAwait(false);
        long length;
        await using (stream.ConfigureAwait(false))
        {
            length = await StreamDrain.ReadToEndAsync(stream).ConfigureAwait(false);
        }

        return Summary(length, clock.Elapsed, reply: null);
    }

    public static async Task<object?> SendAsync<TReply>(int size, Func<Stream, Task<TReply>> call)
    {
        var clock = Stopwatch.StartNew();
        var reply = await call(new PatternStream(size)).ConfigureAwait(false);
        return Summary(size, clock.Elapsed, reply);
    }

    private static object Summary(long length, TimeSpan elapsed, object? reply) => new
    {
        Length = length,
        Reply = reply,
        Seconds = Math.Round(elapsed.TotalSeconds, 3),
        MegabytesPerSecond = Math.Round(length / 1e6 / Math.Max(elapsed.TotalSeconds, 1e-9), 1),
        ClientPeakResidentMegabytes = Math.Round(Process.GetCurrentProcess().PeakWorkingSet64 / 1e6, 1),
    };
}
