using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers;

namespace RpcCompare.Runner.Hosting;

/// <summary>
/// What a host process allocates, read from its runtime's own events over EventPipe (the
/// diagnostics client dotnet-trace uses): the runtime raises a GC AllocationTick event each time a
/// thread has allocated about 100 KB, carrying the exact amount since the last one. Summing the
/// amounts whose timestamps fall inside a trial gives the bytes the host allocated during it, to
/// within about 100 KB per allocating thread at each end of the window.
/// </summary>
internal sealed class HostAllocationMonitor : IAsyncDisposable
{
    // The GC keyword at Verbose level: AllocationTick is a verbose GC event.
    private const long GcKeyword = 0x1;

    private readonly EventPipeSession _session;
    private readonly EventPipeEventSource _source;
    private readonly Task _processing;
    private readonly List<(DateTime Time, long Bytes)> _ticks = [];
    private bool _stopped;

    private HostAllocationMonitor(EventPipeSession session)
    {
        _session = session;
        _source = new EventPipeEventSource(session.EventStream);
        _source.Clr.GCAllocationTick += e =>
        {
            lock (_ticks)
            {
                _ticks.Add((e.TimeStamp, e.AllocationAmount64));
            }
        };
        _processing = Task.Run(_source.Process);
    }

    /// <summary>Starts reading the events of <paramref name="processId"/>; null with the reason when the runtime does not answer.</summary>
    public static HostAllocationMonitor? TryStart(int processId, out string? whyNot)
    {
        try
        {
            var client = new DiagnosticsClient(processId);
            var session = client.StartEventPipeSession(
                [new EventPipeProvider(ClrTraceEventParser.ProviderName, EventLevel.Verbose, GcKeyword)],
                requestRundown: false,
                circularBufferMB: 64);
            whyNot = null;
            return new HostAllocationMonitor(session);
        }
        catch (Exception exception) when (exception is ServerNotAvailableException or UnsupportedCommandException or IOException or TimeoutException or UnauthorizedAccessException)
        {
            whyNot = $"the host's diagnostics port did not answer ({exception.Message})";
            return null;
        }
    }

    /// <summary>Ends the session and waits until every event it delivered has been read.</summary>
    public async Task StopAsync()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        await _session.StopAsync(CancellationToken.None);
        await _processing.WaitAsync(TimeSpan.FromSeconds(30));
    }

    /// <summary>Bytes allocated by the host between two local times (call after <see cref="StopAsync"/>).</summary>
    public long AllocatedBetween(DateTime start, DateTime end)
    {
        lock (_ticks)
        {
            return _ticks.Where(t => t.Time >= start && t.Time < end).Sum(t => t.Bytes);
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            await StopAsync();
        }
        catch (Exception exception) when (exception is ServerNotAvailableException or IOException or TimeoutException or ObjectDisposedException)
        {
            // The host is already gone: nothing left to read.
        }

        _source.Dispose();
        _session.Dispose();
    }
}
