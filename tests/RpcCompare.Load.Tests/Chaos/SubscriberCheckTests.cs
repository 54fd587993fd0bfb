using RpcCompare.Load.Chaos;

namespace RpcCompare.Load.Tests.Chaos;

/// <summary>The verdict --chaos kill-replica gives each push subscriber, on made-up receipts.</summary>
public sealed class SubscriberCheckTests
{
    // Ended before anything arrived: no gap allowance for subscribers whose numbers start at 1.
    private static readonly ChaosInterruption s_resumed = new(0.1, 0.4, ReceivedBefore: 0);

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
    public void AGapAtAResumption_IsGoneAndKnown_NotLost()
    {
        // Ended after 2, resumed with After = 2, and the replay began at 5: 3 and 4 were more than it holds.
        var result = ChaosSubscriber.Check("wcf-http", 2, [1, 2, 5, 6], 6, [new ChaosInterruption(1.0, 1.5, ReceivedBefore: 2)]);

        Assert.Empty(result.Problems);
        Assert.Equal((0L, 2L), (result.Missing, result.GoneAtResume));
    }

    [Fact]
    public void AGapElsewhere_IsLost_EvenBesideAResumption()
    {
        var result = ChaosSubscriber.Check("wcf-http", 2, [1, 2, 5, 6, 8], 8, [new ChaosInterruption(1.0, 1.5, ReceivedBefore: 2)]);

        Assert.Equal((1L, 2L), (result.Missing, result.GoneAtResume));
        Assert.Equal("missed 1 of the 8 acknowledged publications (first: 7)", Assert.Single(result.Problems));
    }

    [Fact]
    public void NothingAfterAResumption_LeavesNoAllowance()
    {
        var result = ChaosSubscriber.Check("fast-tcp", 1, [1, 2], 5, [new ChaosInterruption(1.0, 1.5, ReceivedBefore: 2)]);

        Assert.Equal((3L, 0L), (result.Missing, result.GoneAtResume));
        Assert.Single(result.Problems);
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
        var result = ChaosSubscriber.Check("fast-tcp", 1, [1, 2], 2, [s_resumed, new ChaosInterruption(3.0, null, ReceivedBefore: 2)]);

        Assert.Equal(0, result.Missing);
        Assert.Contains("could not be made again", Assert.Single(result.Problems), StringComparison.Ordinal);
    }

    [Fact]
    public void NothingAcknowledged_NothingRequired()
    {
        Assert.Empty(ChaosSubscriber.Check("fast-tcp", 1, [], 0, []).Problems);
    }
}
