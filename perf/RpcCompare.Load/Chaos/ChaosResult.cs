namespace RpcCompare.Load.Chaos;

/// <summary>The kill -9: what was killed, when, and how the bindings (and, for a replica, push) came through it.</summary>
/// <param name="Target">The host the load command started (restarted at once) or one replica of a fleet behind a balancer (not restarted).</param>
/// <param name="KilledAtSeconds">Seconds into the load when the host had been killed, or the replica's kill command started.</param>
/// <param name="KillCommandSeconds">A replica: how long the kill command took (failures while it ran count as after the kill); null for a host.</param>
/// <param name="RestartSeconds">A host: from the kill until the restarted host had written its endpoints file (every listener up); null for a replica.</param>
/// <param name="SameAddresses">Whether the restarted host serves on the addresses the clients knew (a replica: the balancer's addresses, always).</param>
/// <param name="Bindings">Per binding: calls, failures, recovery, writes verified.</param>
/// <param name="Push">A replica: the subscribers through the balancer and what each received; null for a host.</param>
internal sealed record ChaosResult(ChaosTarget Target, double KilledAtSeconds, double? KillCommandSeconds, double? RestartSeconds, bool SameAddresses, IReadOnlyList<ChaosBindingResult> Bindings, ChaosPushResult? Push)
{
    public bool Passed => SameAddresses && Bindings.All(b => b.Problems.Count == 0) && (Push is null || Push.Subscribers.All(s => s.Problems.Count == 0));
}

/// <param name="Binding">The binding.</param>
/// <param name="Ok">Calls that succeeded (NBomber's count).</param>
/// <param name="Failed">Calls that failed (NBomber's count).</param>
/// <param name="Errors">Failed calls by error (type and message), most frequent first.</param>
/// <param name="LongestCallMs">The longest call, failed or not: a hang would show here.</param>
/// <param name="RecoverySeconds">From the kill until the first successful call started after it; null when none succeeded.</param>
/// <param name="FailuresEndedSeconds">From the kill until the last failed call ended; null when none failed after it. Behind a balancer, the time it took to stop sending calls to the dead replica.</param>
/// <param name="Writes">What the file held afterwards.</param>
/// <param name="Problems">What makes the binding fail the test: lost writes, no recovery, a call past the timeout.</param>
internal sealed record ChaosBindingResult(
    string Binding,
    long Ok,
    long Failed,
    IReadOnlyList<ErrorCount> Errors,
    double LongestCallMs,
    double? RecoverySeconds,
    double? FailuresEndedSeconds,
    WriteVerification Writes,
    IReadOnlyList<string> Problems)
{
    public override string ToString() =>
        $"{Ok} ok, {Failed} failed, recovery {RecoverySeconds?.ToString("0.00", System.Globalization.CultureInfo.InvariantCulture) ?? "never"} s, longest call {LongestCallMs:0} ms, " +
        $"writes {Writes.Acknowledged} acknowledged / {Writes.Verified} in the file / {Writes.Lost} lost; problems: {string.Join("; ", Problems)}; errors: {string.Join("; ", Errors.Select(e => $"{e.Count} × {e.Error}"))}";
}

/// <summary>How many failed calls ended with one error.</summary>
internal sealed record ErrorCount(string Error, long Count);

/// <summary>Push across the replicas while one died: the publisher's side and every subscriber's.</summary>
/// <param name="PublisherBinding">The binding publications went through (through the balancer).</param>
/// <param name="Acknowledged">Publications whose reply arrived.</param>
/// <param name="HighestAcknowledged">The highest sequence number among them: every subscriber must hold 1 to this.</param>
/// <param name="Failed">Publications that failed (their reply lost; some may still be in the topic).</param>
/// <param name="Errors">Failed publications by error, most frequent first.</param>
/// <param name="Subscribers">Each subscriber's check.</param>
internal sealed record ChaosPushResult(string PublisherBinding, long Acknowledged, long HighestAcknowledged, long Failed, IReadOnlyList<ErrorCount> Errors, IReadOnlyList<ChaosSubscriberResult> Subscribers);

/// <param name="Binding">The subscriber's binding.</param>
/// <param name="Index">Its number among that binding's subscribers, from 1.</param>
/// <param name="Received">Notifications received, repeats included.</param>
/// <param name="Missing">Acknowledged publications it never received, beyond <paramref name="GoneAtResume"/>: lost, must be 0.</param>
/// <param name="GoneAtResume">Numbers missing between the last received before an end and the first after its resumption: more than a resumption replays, known to the subscriber by the gap.</param>
/// <param name="Duplicates">Notifications received more than once.</param>
/// <param name="OutOfOrder">Notifications whose number was not above the one before (repeats included): must be 0.</param>
/// <param name="Interruptions">Each time its subscription ended, and when it was subscribed again (seconds from the kill; no resumption: null).</param>
/// <param name="Problems">What makes it fail: a missed publication, disorder, no resumption.</param>
internal sealed record ChaosSubscriberResult(
    string Binding,
    int Index,
    long Received,
    long Missing,
    long GoneAtResume,
    long Duplicates,
    long OutOfOrder,
    IReadOnlyList<ChaosInterruption> Interruptions,
    IReadOnlyList<string> Problems);

/// <summary>A subscription that ended, and when it was made again, in seconds from the kill.</summary>
/// <param name="EndedSeconds">When it ended.</param>
/// <param name="ResumedSeconds">When it was made again; null when it could not be.</param>
/// <param name="ReceivedBefore">Notifications received before it ended: where the resumption's gap, if any, begins.</param>
/// <param name="HighestAcknowledgedAtResume">The publisher's highest acknowledged number when it was made again: what a replay could leave out lies more than a replay below it.</param>
/// <param name="Stopped">The run ended while it was still trying: not a failure to resume by itself.</param>
internal sealed record ChaosInterruption(double EndedSeconds, double? ResumedSeconds, int ReceivedBefore, long HighestAcknowledgedAtResume, bool Stopped = false);
