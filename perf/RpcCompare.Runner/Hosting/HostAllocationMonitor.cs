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
    private DateTime[]? _times;
    private long[]? _allocatedBefore;
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

    /// <summary>Ends the session, waits until every event it delivered has been read and indexes them by time.</summary>
    public async Task StopAsync()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        await _session.StopAsync(CancellationToken.None);
        await _processing.WaitAsync(TimeSpan.FromSeconds(30));
        lock (_ticks)
        {
            _ticks.Sort((a, b) => a.Time.CompareTo(b.Time));
            _times = [.. _ticks.Select(t => t.Time)];
            // _allocatedBefore[i]: bytes of the first i ticks, so any window is one subtraction.
            _allocatedBefore = new long[_ticks.Count + 1];
            for (var i = 0; i < _ticks.Count; i++)
            {
                _allocatedBefore[i + 1] = _allocatedBefore[i] + _ticks[i].Bytes;
            }
        }
    }

    /// <summary>Bytes allocated by the host between two local times (call after <see cref="StopAsync"/>).</summary>
    public long AllocatedBetween(DateTime start, DateTime end)
    {
        if (_times is null || _allocatedBefore is null)
        {
            throw new InvalidOperationException("Stop the monitor before reading it: events arrive after they happen.");
        }

        return _allocatedBefore[FirstAtOrAfter(end)] - _allocatedBefore[FirstAtOrAfter(start)];
    }

    private int FirstAtOrAfter(DateTime time)
    {
        var index = Array.BinarySearch(_times!, time);
        if (index < 0)
        {
            return ~index;
        }

        // Equal timestamps: step back to the first of them.
        while (index > 0 && _times![index - 1] == time)
        {
            index--;
        }

        return index;
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
