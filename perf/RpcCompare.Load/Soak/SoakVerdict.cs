namespace RpcCompare.Load.Soak;

/// <summary>
/// Whether a soak stayed healthy. The first fifth of the samples is the warm-up (pools fill, tiered
/// compilation settles) and is not judged. After it, the median of the last fifth is compared with
/// the median of the second fifth: resident memory may rise by at most 20 % or 32 MB, whichever is
/// more, the GC heap by at most 20 % or 16 MB, open descriptors (and sockets) by at most 16. Beyond
/// that, a resource is growing with time rather than with load, which is what "without bound" means
/// over a run of fixed rate. Any failed call fails the soak too.
/// </summary>
internal static class SoakVerdict
{
    public const double GrowthShare = 0.20;
    public const long RssAllowanceBytes = 32L * 1024 * 1024;
    public const long HeapAllowanceBytes = 16L * 1024 * 1024;
    public const int DescriptorAllowance = 16;

    /// <summary>Samples needed for a judgement: five windows of at least two.</summary>
    public const int MinSamples = 10;

    public static string Criterion =>
        $"after the first fifth (warm-up), the median of the last fifth of samples against the median of the second fifth: RSS may rise by {GrowthShare:P0} or " +
        $"{RssAllowanceBytes / 1024 / 1024} MB (whichever is more), the GC heap by {GrowthShare:P0} or {HeapAllowanceBytes / 1024 / 1024} MB, " +
        $"open descriptors and sockets by {DescriptorAllowance}; no call may fail";

    /// <returns>Each broken condition in words; empty when the soak passed.</returns>
    public static IReadOnlyList<string> Judge(IReadOnlyList<HostSample> samples, long failedCalls)
    {
        var problems = new List<string>();
        if (failedCalls > 0)
        {
            problems.Add($"{failedCalls:#,0} calls failed");
        }

        if (samples.Count < MinSamples)
        {
            problems.Add($"only {samples.Count} samples of the host (the process ended or the soak was too short to judge; {MinSamples} needed)");
            return problems;
        }

        var fifth = samples.Count / 5;
        var early = samples.Skip(fifth).Take(fifth).ToList();
        var late = samples.Skip(samples.Count - fifth).ToList();
        void Check(string what, Func<HostSample, double?> value, double allowance, bool proportional, Func<double, string> format)
        {
            if (Median(early, value) is not { } before || Median(late, value) is not { } after)
            {
                return;
            }

            var limit = proportional ? Math.Max(before * GrowthShare, allowance) : allowance;
            if (after - before > limit)
            {
                problems.Add($"{what} grew from {format(before)} to {format(after)} (more than {format(limit)})");
            }
        }

        static string Megabytes(double bytes) => $"{bytes / 1024 / 1024:0.#} MB";
        static string Count(double count) => $"{count:0}";
        Check("RSS", s => s.RssBytes, RssAllowanceBytes, true, Megabytes);
        Check("GC heap", s => s.GcHeapBytes, HeapAllowanceBytes, true, Megabytes);
        Check("open descriptors", s => s.Handles, DescriptorAllowance, false, Count);
        Check("sockets", s => s.Sockets, DescriptorAllowance, false, Count);
        return problems;
    }

    private static double? Median(IReadOnlyList<HostSample> samples, Func<HostSample, double?> value)
    {
        var values = samples.Select(value).OfType<double>().Order().ToList();
        return values.Count == 0 ? null : values.Count % 2 == 1 ? values[values.Count / 2] : (values[(values.Count / 2) - 1] + values[values.Count / 2]) / 2;
    }
}
