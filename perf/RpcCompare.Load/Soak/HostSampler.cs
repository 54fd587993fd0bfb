using System.Diagnostics.Tracing;
using System.Globalization;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;

namespace RpcCompare.Load.Soak;

/// <summary>
/// Samples a host process from outside: memory, threads and descriptors from /proc/&lt;pid&gt;, and
/// the GC heap and gen-2 collections from the runtime's own "System.Runtime" counters over EventPipe
/// (what dotnet-counters shows), reported once a second.
/// </summary>
internal sealed class HostSampler : IAsyncDisposable
{
    private readonly int _processId;
    private readonly EventPipeSession? _session;
    private readonly EventPipeEventSource? _source;
    private readonly Task _processing = Task.CompletedTask;
    private long _gcHeapBytes = -1; // -1 until the runtime's first counter report
    private long _gen2Collections;

    public HostSampler(int processId)
    {
        _processId = processId;
        try
        {
            var provider = new EventPipeProvider("System.Runtime", EventLevel.Informational, 0xffffffff,
                new Dictionary<string, string> { ["EventCounterIntervalSec"] = "1" });
            _session = new DiagnosticsClient(processId).StartEventPipeSession([provider], requestRundown: false);
            _source = new EventPipeEventSource(_session.EventStream);
            _source.Dynamic.All += OnEvent;
            _processing = Task.Run(_source.Process);
        }
        catch (Exception exception) when (exception is ServerNotAvailableException or UnsupportedCommandException or IOException or TimeoutException or UnauthorizedAccessException)
        {
            WhyNoCounters = $"the host's diagnostics port did not answer ({exception.Message})";
        }
    }

    /// <summary>Why the GC figures are missing, or null when the runtime's counters are read.</summary>
    public string? WhyNoCounters { get; }

    /// <summary>Reads the process now; null when it has exited.</summary>
    public HostSample? Sample(double seconds)
    {
        var procDirectory = $"/proc/{_processId}";
        try
        {
            long rss = 0;
            var threads = 0;
            foreach (var line in File.ReadLines($"{procDirectory}/status"))
            {
                if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                {
                    rss = 1024 * long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture);
                }
                else if (line.StartsWith("Threads:", StringComparison.Ordinal))
                {
                    threads = int.Parse(line.Split('\t', StringSplitOptions.RemoveEmptyEntries)[1].Trim(), CultureInfo.InvariantCulture);
                }
            }

            var handles = 0;
            var sockets = 0;
            foreach (var descriptor in Directory.EnumerateFileSystemEntries($"{procDirectory}/fd"))
            {
                handles++;
                if (new FileInfo(descriptor).LinkTarget?.StartsWith("socket:", StringComparison.Ordinal) == true)
                {
                    sockets++;
                }
            }

            return new HostSample(seconds, rss, Interlocked.Read(ref _gcHeapBytes) is >= 0 and var heap ? heap : null, Interlocked.Read(ref _gen2Collections), threads, handles, sockets);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    // Counter payloads: {"Payload": {"Name": ..., "Mean": ...}} for gauges, "Increment" for counts per interval.
    private void OnEvent(TraceEvent data)
    {
        if (data.EventName != "EventCounters" || data.PayloadValue(0) is not IDictionary<string, object> outer
            || outer.TryGetValue("Payload", out var inner) != true || inner is not IDictionary<string, object> payload
            || !payload.TryGetValue("Name", out var name))
        {
            return;
        }

        switch (name as string)
        {
            case "gc-heap-size" when payload.TryGetValue("Mean", out var megabytes):
                Interlocked.Exchange(ref _gcHeapBytes, (long)(Convert.ToDouble(megabytes, CultureInfo.InvariantCulture) * 1024 * 1024));
                break;
            case "gen-2-gc-count" when payload.TryGetValue("Increment", out var increment):
                Interlocked.Add(ref _gen2Collections, (long)Convert.ToDouble(increment, CultureInfo.InvariantCulture));
                break;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_session is null)
        {
            return;
        }

        try
        {
            await _session.StopAsync(CancellationToken.None);
            await _processing.WaitAsync(TimeSpan.FromSeconds(10));
        }
        catch (Exception exception) when (exception is ServerNotAvailableException or IOException or TimeoutException or ObjectDisposedException)
        {
            // The host is already gone: nothing left to read.
        }

        _source?.Dispose();
        _session.Dispose();
    }
}
