namespace RpcCompare.Load.Chaos;

/// <summary>The kill -9: when it happened and how long the host took to come back.</summary>
/// <param name="KilledAtSeconds">Seconds into the load when the host was killed.</param>
/// <param name="RestartSeconds">From the kill until the restarted host had written its endpoints file (every listener up).</param>
/// <param name="SameAddresses">Whether the restarted host serves on the addresses the clients knew.</param>
/// <param name="Bindings">Per binding: calls, failures, recovery, writes verified.</param>
internal sealed record ChaosResult(double KilledAtSeconds, double RestartSeconds, bool SameAddresses, IReadOnlyList<ChaosBindingResult> Bindings)
{
    public bool Passed => SameAddresses && Bindings.All(b => b.Problems.Count == 0);
}

/// <param name="Binding">The binding.</param>
/// <param name="Ok">Calls that succeeded (NBomber's count).</param>
/// <param name="Failed">Calls that failed (NBomber's count).</param>
/// <param name="Errors">Failed calls by error (type and message), most frequent first.</param>
/// <param name="LongestCallMs">The longest call, failed or not: a hang would show here.</param>
/// <param name="RecoverySeconds">From the kill until the first successful call started after it; null when none succeeded.</param>
/// <param name="Writes">What the file held afterwards.</param>
/// <param name="Problems">What makes the binding fail the test: lost writes, no recovery, a call past the timeout.</param>
internal sealed record ChaosBindingResult(
    string Binding,
    long Ok,
    long Failed,
    IReadOnlyList<ErrorCount> Errors,
    double LongestCallMs,
    double? RecoverySeconds,
    WriteVerification Writes,
    IReadOnlyList<string> Problems)
{
    public override string ToString() =>
        $"{Ok} ok, {Failed} failed, recovery {RecoverySeconds?.ToString("0.00", System.Globalization.CultureInfo.InvariantCulture) ?? "never"} s, longest call {LongestCallMs:0} ms, " +
        $"writes {Writes.Acknowledged} acknowledged / {Writes.Verified} in the file / {Writes.Lost} lost; problems: {string.Join("; ", Problems)}; errors: {string.Join("; ", Errors.Select(e => $"{e.Count} × {e.Error}"))}";
}

/// <summary>How many failed calls ended with one error.</summary>
internal sealed record ErrorCount(string Error, long Count);
