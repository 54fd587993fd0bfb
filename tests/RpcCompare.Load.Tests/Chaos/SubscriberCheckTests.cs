using RpcCompare.Load.Chaos;

namespace RpcCompare.Load.Tests.Chaos;

/// <summary>The verdict --chaos kill-replica gives each push subscriber, on made-up receipts.</summary>
public sealed class SubscriberCheckTests
{
    // Ended before anything arrived: no gap allowance for subscribers whose numbers start at 1.
    private static readonly ChaosInterruption s_resumed = new(0.1, 0.4, ReceivedBefore: 0, HighestAcknowledgedAtResume: 0);

    [Fact]
    public void EveryNumberOnceInOrder_AfterAResumption_Passes()
    {
        var result = ChaosSubscriber.Check("fast-tcp", 1, [1, 2, 3, 4, 5], 5, [s_resumed]);

        Assert.Empty(result.Problems);
        Assert.Equal((5L, 0L, 0L, 0L), (result.Received, result.Missing, result.Duplicates, result.OutOfOrder));
    }

    [Fact]
    public void PublicationsPastTheHighestAcknowledged_AreWelcomeButNotRequired()
    {
        Assert.Empty(ChaosSubscriber.Check("fast-tcp", 1, [1, 2, 3, 4], 3, []).Problems);
        Assert.Empty(ChaosSubscriber.Check("fast-tcp", 1, [1, 2, 3], 3, []).Problems);
    }

    [Fact]
    public void AGap_IsMissed_AndNamed()
    {
        var result = ChaosSubscriber.Check("grpc-tcp", 2, [1, 2, 5, 6], 6, [s_resumed]);

        Assert.Equal(2, result.Missing);
        Assert.Equal("missed 2 of the 6 acknowledged publications (first: 3, 4)", Assert.Single(result.Problems));
    }

    [Fact]
    public void AGapAtAResumption_BeyondTheReplay_IsGoneAndKnown_NotLost()
    {
        // Ended after 2; when it resumed the topic had reached 262, so the replay began at 262 + 1 - 128 = 135.
        long[] received = [1, 2, .. Enumerable.Range(135, 166).Select(i => (long)i)];
        var result = ChaosSubscriber.Check("wcf-http", 2, received, 300, [new ChaosInterruption(1.0, 1.5, ReceivedBefore: 2, HighestAcknowledgedAtResume: 262)]);

        Assert.Empty(result.Problems);
        Assert.Equal((0L, 132L), (result.Missing, result.GoneAtResume));
    }

    [Fact]
    public void AGapAtAResumption_WithinTheReplay_IsLost()
    {
        // 3 and 4 were still among the newest 128 when it resumed: the replay should have brought them.
        var result = ChaosSubscriber.Check("wcf-http", 2, [1, 2, 5, 6], 6, [new ChaosInterruption(1.0, 1.5, ReceivedBefore: 2, HighestAcknowledgedAtResume: 6)]);

        Assert.Equal((2L, 0L), (result.Missing, result.GoneAtResume));
        Assert.Equal("missed 2 of the 6 acknowledged publications (first: 3, 4)", Assert.Single(result.Problems));
    }

    [Fact]
    public void AGapElsewhere_IsLost_EvenBesideAResumption()
    {
        long[] received = [1, 2, .. Enumerable.Range(135, 166).Select(i => (long)i).Where(i => i != 200)];
        var result = ChaosSubscriber.Check("wcf-http", 2, received, 300, [new ChaosInterruption(1.0, 1.5, ReceivedBefore: 2, HighestAcknowledgedAtResume: 262)]);

        Assert.Equal((1L, 132L), (result.Missing, result.GoneAtResume));
        Assert.Equal("missed 1 of the 300 acknowledged publications (first: 200)", Assert.Single(result.Problems));
    }

    [Fact]
    public void NothingAfterAResumption_LeavesNoAllowance()
    {
        var result = ChaosSubscriber.Check("fast-tcp", 1, [1, 2], 500, [new ChaosInterruption(1.0, 1.5, ReceivedBefore: 2, HighestAcknowledgedAtResume: 400)]);

        Assert.Equal((498L, 0L), (result.Missing, result.GoneAtResume));
        Assert.Single(result.Problems);
    }

    [Fact]
    public void ARunStoppedWhileResuming_IsNotAFailureToResume()
    {
        var result = ChaosSubscriber.Check("fast-tcp", 1, [1, 2], 2, [new ChaosInterruption(3.0, null, ReceivedBefore: 2, HighestAcknowledgedAtResume: 2, Stopped: true)]);

        Assert.Empty(result.Problems);
    }

    [Fact]
    public void TheTailMissing_IsMissed()
    {
        // Nothing arrived after the kill: the numbers the publisher saw acknowledged after it are the loss.
        var result = ChaosSubscriber.Check("wcf-nettcp", 1, [1, 2], 4, []);

        Assert.Equal(2, result.Missing);
        Assert.Single(result.Problems);
    }

    [Fact]
    public void ARepeat_IsCountedAsRepeatedAndOutOfOrder()
    {
        var result = ChaosSubscriber.Check("wcf-http", 3, [1, 2, 2, 3], 3, [s_resumed]);

        Assert.Equal((0L, 1L, 1L), (result.Missing, result.Duplicates, result.OutOfOrder));
        Assert.Equal("1 notifications out of order or repeated", Assert.Single(result.Problems));
    }

    [Fact]
    public void Reordering_IsOutOfOrder()
    {
        var result = ChaosSubscriber.Check("fast-tcp", 1, [1, 3, 2, 4], 4, []);

        Assert.Equal((0L, 0L, 1L), (result.Missing, result.Duplicates, result.OutOfOrder));
        Assert.Single(result.Problems);
    }

    [Fact]
    public void AnEndWithoutAResumption_Fails_EvenWithNothingMissed()
    {
        var result = ChaosSubscriber.Check("fast-tcp", 1, [1, 2], 2, [s_resumed, new ChaosInterruption(3.0, null, ReceivedBefore: 2, HighestAcknowledgedAtResume: 2)]);

        Assert.Equal(0, result.Missing);
        Assert.Contains("could not be made again", Assert.Single(result.Problems), StringComparison.Ordinal);
    }

    [Fact]
    public void NothingAcknowledged_NothingRequired()
    {
        Assert.Empty(ChaosSubscriber.Check("fast-tcp", 1, [], 0, []).Problems);
    }
}
