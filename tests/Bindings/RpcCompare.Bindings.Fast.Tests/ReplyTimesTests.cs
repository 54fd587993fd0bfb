using RpcCompare.Bindings.Fast.Client;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>How long the process's only call in flight spins for its reply: about as long as its operation's replies lately took, within the spin setting and four times it.</summary>
public sealed class ReplyTimesTests
{
    private const long Spin = 1_000;

    [Fact]
    public void AnOperationNotYetAnswered_SpinsTheSetting()
    {
        var times = new ReplyTimes();
        times.Record(1, 3 * Spin);

        Assert.Equal(Spin, times.BudgetFor(2, Spin));
        Assert.Equal(Spin, times.BudgetFor(500, Spin));
    }

    [Fact]
    public void RepliesSlowerThanTheSetting_StretchTheSpin_AQuarterPastThem()
    {
        var times = new ReplyTimes();
        times.Record(1, 2 * Spin);

        Assert.Equal(2_500, times.BudgetFor(1, Spin));
    }

    [Fact]
    public void TheStretch_StopsAtFourTimesTheSetting_AndNeverGoesBelowIt()
    {
        var times = new ReplyTimes();
        times.Record(1, 100 * Spin);
        times.Record(2, Spin / 10);

        Assert.Equal(ReplyTimes.MaxStretch * Spin, times.BudgetFor(1, Spin));
        Assert.Equal(Spin, times.BudgetFor(2, Spin));
    }

    [Fact]
    public void OneOddReply_MovesTheBudgetAnEighthOfTheWay()
    {
        var times = new ReplyTimes();
        times.Record(3, 2_000);
        times.Record(3, 10_000);

        // 2,000 + (10,000 − 2,000) / 8 = 3,000 typical; a quarter more.
        Assert.Equal(3_750, times.BudgetFor(3, Spin));
    }

    [Fact]
    public void OperationsAreKeptApart_WhateverTheirIds()
    {
        var times = new ReplyTimes();
        times.Record(700, 2 * Spin);
        times.Record(1, 3 * Spin);

        Assert.Equal(2_500, times.BudgetFor(700, Spin));
        Assert.Equal(3_750, times.BudgetFor(1, Spin));
    }

    [Fact]
    public void ATimeThatIsNoTime_IsNotCounted()
    {
        var times = new ReplyTimes();
        times.Record(1, 2 * Spin);
        times.Record(1, 0);
        times.Record(1, -5);

        Assert.Equal(2_500, times.BudgetFor(1, Spin));
    }
}
