using System.Collections.Concurrent;
using System.Diagnostics;
using RpcCompare.Contracts;
using RpcCompare.Load.Scenarios;

namespace RpcCompare.Load.Chaos;

/// <summary>One binding's writes under chaos and what its calls saw.</summary>
internal sealed class BindingUnderChaos
{
    private long _firstSuccessAfterKillTicks = -1;
    private long _lastFailureTicks = -1;
    private long _longestCallTicks;

    public BindingUnderChaos(string binding, WriteLedger ledger)
    {
        Binding = binding;
        Ledger = ledger;
        Operation = new LoadOperation("write-sequence", WriteLedger.RecordSize, session =>
        {
            var files = session.Get<IFileService>();
            return async () =>
            {
                var (sequence, request) = ledger.Next();
                await files.WriteAtAsync(request);
                ledger.Acknowledge(sequence);
            };
        });
    }

    public string Binding { get; }

    public WriteLedger Ledger { get; }

    public LoadOperation Operation { get; }

    public double KilledAt { get; set; } = double.PositiveInfinity;

    public ConcurrentDictionary<string, long> Errors { get; } = new();

    /// <summary>Seconds into the load when the first call started after the kill succeeded; NaN when none did.</summary>
    public double FirstSuccessAfterKill => Seconds(ref _firstSuccessAfterKillTicks);

    /// <summary>Seconds into the load when the last failed call ended; NaN when none failed.</summary>
    public double LastFailure => Seconds(ref _lastFailureTicks);

    public double LongestCallMs => TimeSpan.FromTicks(Interlocked.Read(ref _longestCallTicks)).TotalMilliseconds;

    /// <summary>Calls made after the load's window to confirm recovery, counted beside NBomber's.</summary>
    public int ConfirmationOk { get; set; }

    /// <inheritdoc cref="ConfirmationOk"/>
    public int ConfirmationFailed { get; set; }

    public async Task CallAsync(ClientPool pool, Stopwatch clock)
    {
        var started = clock.Elapsed;
        try
        {
            await pool.CallAsync();
            if (started.TotalSeconds >= KilledAt)
            {
                Interlocked.CompareExchange(ref _firstSuccessAfterKillTicks, clock.Elapsed.Ticks, -1);
            }
        }
        catch (Exception exception)
        {
            Errors.Count(exception);
            ChaosCounting.RaiseTo(ref _lastFailureTicks, clock.Elapsed.Ticks);
            await Task.Delay(ChaosSettings.RetryPause);
            throw;
        }
        finally
        {
            ChaosCounting.RaiseTo(ref _longestCallTicks, (clock.Elapsed - started).Ticks);
        }
    }

    private static double Seconds(ref long ticks) => Interlocked.Read(ref ticks) is >= 0 and var value ? TimeSpan.FromTicks(value).TotalSeconds : double.NaN;
}
