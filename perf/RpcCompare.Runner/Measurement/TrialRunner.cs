using System.Diagnostics;
using RpcCompare.Bindings;
using RpcCompare.Bindings.Security;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Runner.Hosting;

namespace RpcCompare.Runner.Measurement;

/// <summary>
/// Opens cells and runs their trials. A cell is opened with one untimed call per client
/// (connects, and fails fast with the cell's own error) and a warm-up; its timed trials of
/// closed-loop calls are then run one at a time, so the caller can interleave the trials of
/// several cells (trial 1 of every binding, then trial 2, ...) and drift hits them alike. A
/// failed call fails the run: a figure is only reported when every call in it succeeded. A first
/// call refused as over the binding's message limit marks the cell refused instead
/// (<see cref="CellRefusedException"/>).
/// </summary>
internal sealed class TrialRunner
{
    // Bounds every loop by count as well as by time, whatever the binding's speed.
    private const long MaxCallsPerClientPerTrial = 200_000_000;

    private readonly RpcClientFactory _factory;
    private readonly MeasurementSettings _settings;
    private readonly ClientTlsOptions? _tls;
    private readonly IReadOnlyDictionary<string, int> _hostProcesses;

    /// <param name="factory">The clients' factory, unless a cell's target brings its own.</param>
    /// <param name="settings">Trials, warm-up, durations.</param>
    /// <param name="tls">The host's TLS trust, for the factories a connection-per-client cell makes.</param>
    /// <param name="hostProcesses">The process serving each address, for hosts the runner started: their CPU time is read per trial.</param>
    public TrialRunner(RpcClientFactory factory, MeasurementSettings settings, ClientTlsOptions? tls = null, IReadOnlyDictionary<string, int>? hostProcesses = null)
    {
        _factory = factory;
        _settings = settings;
        _tls = tls;
        _hostProcesses = hostProcesses ?? new Dictionary<string, int>();
    }

    public MeasurementSettings Settings => _settings;

    /// <summary>Connects the cell's clients, makes the first call on each and warms up.</summary>
    public async Task<OpenCell> OpenAsync(Workload workload)
    {
        var clients = workload.Clients ?? _settings.Clients;
        var ownFactories = workload.Target.ConnectionPerClient
            ? Enumerable.Range(0, clients).Select(_ => RunnerClients.CreateFactory(_tls)).ToArray()
            : [];
        var sessions = Enumerable.Range(0, clients)
            .Select(i => new RpcClientSession(ownFactories.Length > 0 ? ownFactories[i] : workload.Target.ClientFactory ?? _factory, workload.Target.Binding, workload.Target.Address))
            .ToArray();
        try
        {
            var calls = sessions.Select(workload.CreateCall).ToArray();
            foreach (var call in calls)
            {
                try
                {
                    await call();
                }
                catch (RpcServiceException exception) when (exception.Code == RpcErrorCode.QuotaExceeded)
                {
                    throw new CellRefusedException(exception.Message, exception);
                }
            }

            var warmUp = await RunAsync(calls, _settings.WarmUp, stride: long.MaxValue, hostProcess: null);
            // Sample latencies at an even stride so a fast binding's percentiles cover the whole trial.
            var expected = warmUp.CallsPerSecond * _settings.TrialDuration.TotalSeconds;
            var stride = Math.Max(1, (long)Math.Ceiling(expected / MeasurementSettings.MaxLatencySamples));
            // inproc's "address" is the data root, served by the runner itself.
            int? hostProcess = workload.Target.Binding != BindingNames.InProc && _hostProcesses.TryGetValue(workload.Target.Address, out var pid) ? pid : null;
            return new OpenCell(this, workload, sessions, ownFactories, calls, stride, hostProcess);
        }
        catch (Exception exception)
        {
            await CloseAsync(sessions, ownFactories);
            if (exception is MeasurementException or CellRefusedException)
            {
                throw;
            }

            throw Failed(workload, exception);
        }
    }

    // Sessions first: they close connections the factories' channels carry.
    private static async Task CloseAsync(RpcClientSession[] sessions, RpcClientFactory[] ownFactories)
    {
        foreach (var session in sessions)
        {
            await session.DisposeAsync();
        }

        foreach (var factory in ownFactories)
        {
            factory.Dispose();
        }
    }

    private static MeasurementException Failed(Workload workload, Exception exception) =>
        new($"{workload.Suite}/{workload.Operation} over {workload.Target.Label} failed: {exception.Message}", exception);

    /// <summary>A cell with its clients connected and warmed up, collecting trials.</summary>
    internal sealed class OpenCell : IAsyncDisposable
    {
        private readonly TrialRunner _runner;
        private readonly RpcClientSession[] _sessions;
        private readonly RpcClientFactory[] _ownFactories;
        private readonly Func<Task>[] _calls;
        private readonly List<TrialResult> _trials = [];
        private readonly long _stride;
        private readonly int? _hostProcess;

        public OpenCell(TrialRunner runner, Workload workload, RpcClientSession[] sessions, RpcClientFactory[] ownFactories, Func<Task>[] calls, long stride, int? hostProcess)
        {
            _hostProcess = hostProcess;
            _runner = runner;
            Workload = workload;
            _sessions = sessions;
            _ownFactories = ownFactories;
            _calls = calls;
            _stride = stride;
        }

        public Workload Workload { get; }

        public IReadOnlyList<TrialResult> Trials => _trials;

        public async Task RunTrialAsync()
        {
            try
            {
                _trials.Add(await RunAsync(_calls, _runner._settings.TrialDuration, _stride, _hostProcess));
            }
            catch (Exception exception) when (exception is not MeasurementException)
            {
                throw Failed(Workload, exception);
            }
        }

        public CellResult Result() => new(Workload, _sessions.Length, _trials);

        public async ValueTask DisposeAsync() => await CloseAsync(_sessions, _ownFactories);
    }

    private static async Task<TrialResult> RunAsync(Func<Task>[] calls, TimeSpan duration, long stride, int? hostProcess)
    {
        var samples = calls.Select(_ => new long[MeasurementSettings.MaxLatencySamples / calls.Length + 1]).ToArray();
        // Start every trial from a clean heap so one trial's garbage is not collected in the next.
        GC.Collect();
        GC.WaitForPendingFinalizers();
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        var clientCpuBefore = Environment.CpuUsage.TotalTime;
        var hostCpuBefore = hostProcess is { } before ? ProcessCpu.Read(before) : null;
        var startedLocal = DateTime.Now;
        var start = Stopwatch.GetTimestamp();
        var deadline = start + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        var results = await Task.WhenAll(calls.Select((call, i) => ClientLoopAsync(call, samples[i], deadline, stride)));
        var seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        var endedLocal = DateTime.Now;
        var clientCpu = Environment.CpuUsage.TotalTime - clientCpuBefore;
        var hostCpu = hostProcess is { } after && ProcessCpu.Read(after) is { } hostCpuAfter ? hostCpuAfter - hostCpuBefore : null;
        var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
        var latencies = results.SelectMany((r, i) => samples[i].Take(r.Samples)).ToArray();
        return new TrialResult(results.Sum(r => r.Calls), seconds, allocated, latencies) { Window = (startedLocal, endedLocal), ClientCpu = clientCpu, HostCpu = hostCpu };
    }

    private static async Task<(long Calls, int Samples)> ClientLoopAsync(Func<Task> call, long[] samples, long deadline, long stride)
    {
        // Each client starts on the thread pool, not inline in the loop that starts them all.
        await Task.Yield();
        long calls = 0;
        var sampled = 0;
        while (calls < MaxCallsPerClientPerTrial)
        {
            var before = Stopwatch.GetTimestamp();
            // Every client makes at least one call per trial, even when it was scheduled after the
            // deadline (a short --quick trial on a busy machine): the rate divides by the time it took.
            if (before >= deadline && calls > 0)
            {
                break;
            }

            await call();
            var after = Stopwatch.GetTimestamp();
            if (calls % stride == 0)
            {
                if (sampled == samples.Length)
                {
                    // Faster than the warm-up said: keep every other sample and sample half as
                    // often, so the samples still spread evenly over the whole trial.
                    for (var i = 0; i < samples.Length / 2; i++)
                    {
                        samples[i] = samples[2 * i];
                    }

                    sampled = samples.Length / 2;
                    stride *= 2;
                }

                samples[sampled++] = after - before;
            }

            calls++;
        }

        return (calls, sampled);
    }
}
