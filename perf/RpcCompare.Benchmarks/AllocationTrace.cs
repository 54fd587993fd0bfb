using System.Diagnostics.Tracing;

namespace RpcCompare.Benchmarks;

/// <summary>
/// `-- --allocation-trace`: which types a pipes or fast-uds round trip allocates, both ends in this process.
/// MemoryDiagnoser says how many bytes; this says whose. It listens to the runtime's GC
/// AllocationTick events (one about every 100 KB allocated, naming the type that crossed the
/// mark), so over many round trips each type's share of the samples is its share of the bytes.
/// </summary>
internal static class AllocationTrace
{
    private const int WarmUpRoundTrips = 20_000;
    private const int RoundTrips = 300_000;

    public static async Task<int> RunAsync(TextWriter output)
    {
        var benchmarks = new PipeRoundTripBenchmarks();
        var fast = new FastRoundTripBenchmarks();
        benchmarks.Setup();
        fast.Setup();
        try
        {
            (string Name, Func<int, Task> RoundTrips)[] cases =
            [
                ("System.IO.Pipes streams", n => LoopAsync(benchmarks.PipeStreams, n)),
                ("pipes binding, Ping", n => LoopAsync(() => new ValueTask<Contracts.PingReply>(benchmarks.PipesBindingPing()), n)),
                ("pipes binding, EchoBytes 12 B", n => LoopAsync(() => new ValueTask<Contracts.BytesMessage>(benchmarks.PipesBindingEcho()), n)),
                ("fast-uds, Ping (generated code)", n => LoopAsync(() => new ValueTask<Contracts.PingReply>(fast.FastPing()), n)),
                ("fast-uds, Ping (reflection path)", n => LoopAsync(() => new ValueTask<Contracts.PingReply>(fast.ReflectionPing()), n)),
                ("fast-uds, EchoBytes 12 B (generated code)", n => LoopAsync(() => new ValueTask<Contracts.BytesMessage>(fast.FastEcho()), n)),
                ("fast-uds, EchoBytes 12 B (reflection path)", n => LoopAsync(() => new ValueTask<Contracts.BytesMessage>(fast.ReflectionEcho()), n)),
            ];
            foreach (var (name, roundTrips) in cases)
            {
                await roundTrips(WarmUpRoundTrips);
                using var listener = new AllocationTickListener();
                var before = GC.GetTotalAllocatedBytes(precise: true);
                await roundTrips(RoundTrips);
                var total = GC.GetTotalAllocatedBytes(precise: true) - before;
                listener.Dispose();
                output.WriteLine($"{name}: {total / (double)RoundTrips:#,0} B per round trip over {RoundTrips:#,0} (the listener's own events included), by type:");
                foreach (var (type, bytes) in listener.Snapshot().OrderByDescending(t => t.Value).Where(t => t.Value >= RoundTrips))
                {
                    output.WriteLine($"  {bytes / (double)RoundTrips,8:#,0.0} B  {type}");
                }
            }

            return 0;
        }
        finally
        {
            benchmarks.Cleanup();
            fast.Cleanup();
        }
    }

    // One loop (one state machine) per case, awaiting ValueTasks: the harness adds nothing per round trip.
    private static async Task LoopAsync<T>(Func<ValueTask<T>> roundTrip, int count)
    {
        for (var i = 0; i < count; i++)
        {
            await roundTrip();
        }
    }

    private sealed class AllocationTickListener : EventListener
    {
        private const EventKeywords GcKeyword = (EventKeywords)0x1;
        private readonly Dictionary<string, long> _bytesByType = new(StringComparer.Ordinal);

        public Dictionary<string, long> Snapshot()
        {
            lock (_bytesByType)
            {
                return new(_bytesByType);
            }
        }

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == "Microsoft-Windows-DotNETRuntime")
            {
                EnableEvents(eventSource, EventLevel.Verbose, GcKeyword);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData)
        {
            if (eventData.EventName?.StartsWith("GCAllocationTick", StringComparison.Ordinal) != true || eventData.Payload is null || eventData.PayloadNames is null)
            {
                return;
            }

            var type = eventData.Payload[eventData.PayloadNames.IndexOf("TypeName")] as string ?? "?";
            var amount = Convert.ToInt64(eventData.Payload[eventData.PayloadNames.IndexOf("AllocationAmount64")], System.Globalization.CultureInfo.InvariantCulture);
            lock (_bytesByType)
            {
                _bytesByType[type] = _bytesByType.GetValueOrDefault(type) + amount;
            }
        }
    }
}
