using RpcCompare.Load.Soak;

namespace RpcCompare.Load.Tests.Soak;

/// <summary>The soak's judgement on made-up sample series: flat passes, growth fails, warm-up is forgiven.</summary>
public sealed class SoakVerdictTests
{
    private const long Mb = 1024 * 1024;

    [Fact]
    public void FlatAfterAWarmUp_Passes()
    {
        // Memory climbs during the first fifth (pools filling), then stays.
        var samples = Series(100, i => i < 20 ? 100 * Mb + (i * 5 * Mb) : 200 * Mb, _ => 300);

        Assert.Empty(SoakVerdict.Judge(samples, failedCalls: 0));
    }

    [Fact]
    public void MemoryGrowingAllAlong_Fails()
    {
        var samples = Series(100, i => 100 * Mb + (i * 2 * Mb), _ => 300);

        var problems = SoakVerdict.Judge(samples, failedCalls: 0);

        // RSS: median of samples 20-39 (159 MB) to median of 80-99 (279 MB), past the 20 % allowance.
        Assert.Contains("RSS grew from 159 MB to 279 MB (more than 32 MB)", problems);
        Assert.Contains(problems, p => p.StartsWith("GC heap grew from ", StringComparison.Ordinal));
    }

    [Fact]
    public void DescriptorsLeaking_Fail_EvenWithFlatMemory()
    {
        var samples = Series(100, _ => 100 * Mb, i => 300 + i);

        Assert.Contains(SoakVerdict.Judge(samples, failedCalls: 0), p => p.StartsWith("open descriptors grew from 330 to 390", StringComparison.Ordinal));
    }

    [Fact]
    public void SmallWobbles_WithinTheAllowance_Pass()
    {
        var samples = Series(100, i => (150 * Mb) + (i % 7 * Mb), i => 300 + (i % 5));

        Assert.Empty(SoakVerdict.Judge(samples, failedCalls: 0));
    }

    [Fact]
    public void AFailedCall_FailsTheSoak()
    {
        Assert.Equal(["3 calls failed"], SoakVerdict.Judge(Series(100, _ => 100 * Mb, _ => 300), failedCalls: 3));
    }

    [Fact]
    public void TooFewSamples_CannotPass()
    {
        Assert.Contains(SoakVerdict.Judge(Series(4, _ => 100 * Mb, _ => 300), failedCalls: 0), p => p.StartsWith("only 4 samples", StringComparison.Ordinal));
    }

    private static List<HostSample> Series(int count, Func<int, long> rss, Func<int, int> handles) =>
        [.. Enumerable.Range(0, count).Select(i => new HostSample(i + 1, rss(i), rss(i) / 4, 0, 20, handles(i), 10))];
}
