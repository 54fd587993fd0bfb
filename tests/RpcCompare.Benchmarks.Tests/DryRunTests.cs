using System.Text.RegularExpressions;
using RpcCompare.Testing;

namespace RpcCompare.Benchmarks.Tests;

public sealed partial class DryRunTests
{
    [Fact]
    public async Task DryRun_EveryBenchmarkSucceeds()
    {
        using var artifacts = new TemporaryDirectory();
        var (exitCode, output) = await TestProcess.RunAsync(
            "dotnet",
            [Path.Combine(AppContext.BaseDirectory, "RpcCompare.Benchmarks.dll"), "--smoke", "--filter", "*", "--artifacts", artifacts.FullPath],
            TimeSpan.FromMinutes(5),
            artifacts.FullPath);

        var summary = SummaryLine().Match(output);
        Assert.True(summary.Success, $"no summary line; output:\n{output}");
        var (run, successful, failed) = (int.Parse(summary.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), int.Parse(summary.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture), int.Parse(summary.Groups[3].Value, System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(0, failed);
        Assert.Equal(run, successful);
        Assert.True(run >= 60, $"expected every benchmark (60 or more: 51 encoder round trips, 13 DTOs by 4 encodings less the raw pipe for RpcFault; 9 others) to run, {run} did");
        Assert.Equal(0, exitCode);
    }

    [GeneratedRegex(@"benchmarks: (\d+) run, (\d+) successful, (\d+) failed")]
    private static partial Regex SummaryLine();
}
