using RpcCompare.Bindings.Fast.Transport;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>When a waiter stops spinning: after a spin that ran out, for twice as many waits each time in a row, until one succeeds.</summary>
public sealed class SpinBackoffTests
{
    [Fact]
    public void AWaiterThatNeverFailed_Spins()
    {
        var backoff = new SpinBackoff();

        Assert.True(backoff.ShouldSpin());
        backoff.Record(dataArrived: true);
        Assert.True(backoff.ShouldSpin());
    }

    [Fact]
    public void FailuresInARow_SkipTwiceAsManyWaitsEachTime_UpToTheMost()
    {
        var backoff = new SpinBackoff();
        var skipped = new List<int>();
        for (var failure = 0; failure < 9; failure++)
        {
            backoff.Record(dataArrived: false);
            skipped.Add(SkippedBeforeTheNextSpin(ref backoff));
        }

        Assert.Equal([1, 2, 4, 8, 16, 32, 64, 64, 64], skipped);
        Assert.Equal(SpinBackoff.MaxSkipped, skipped[^1]);
    }

    [Fact]
    public void ASuccess_StartsTheCountAgain()
    {
        var backoff = new SpinBackoff();
        backoff.Record(dataArrived: false);
        SkippedBeforeTheNextSpin(ref backoff);
        backoff.Record(dataArrived: false);
        SkippedBeforeTheNextSpin(ref backoff);

        backoff.Record(dataArrived: true);
        Assert.True(backoff.ShouldSpin());
        backoff.Record(dataArrived: false);

        Assert.Equal(1, SkippedBeforeTheNextSpin(ref backoff));
    }

    // Waits told not to spin until one may (bounded: a backoff that never ends fails here).
    private static int SkippedBeforeTheNextSpin(ref SpinBackoff backoff)
    {
        for (var skipped = 0; skipped <= 10 * SpinBackoff.MaxSkipped; skipped++)
        {
            if (backoff.ShouldSpin())
            {
                return skipped;
            }
        }

        throw new InvalidOperationException("The backoff never let a wait spin again.");
    }
}
