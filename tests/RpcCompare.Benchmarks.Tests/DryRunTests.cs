using System.Diagnostics;
using System.Text.RegularExpressions;
using RpcCompare.Testing;

namespace RpcCompare.Benchmarks.Tests;

public sealed partial class DryRunTests
{
    [Fact]
    public async Task DryRun_EveryBenchmarkSucceeds()
    {
        using var artifacts = new TemporaryDirectory();
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = artifacts.FullPath };
        foreach (var argument in new[] { Path.Combine(AppContext.BaseDirectory, "RpcCompare.Benchmarks.dll"), "--smoke", "--filter", "*", "--artifacts", artifacts.FullPath })
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEndAsync();
        var output = await process.StandardOutput.ReadToEndAsync().WaitAsync(TimeSpan.FromMinutes(5));
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(1));

        var summary = SummaryLine().Match(output);
        Assert.True(summary.Success, $"no summary line; output:\n{output}\n{await error}");
        var (run, successful, failed) = (int.Parse(summary.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture), int.Parse(summary.Groups[2].Value, System.Globalization.CultureInfo.InvariantCulture), int.Parse(summary.Groups[3].Value, System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal(0, failed);
        Assert.Equal(run, successful);
        Assert.True(run >= 15, $"expected every benchmark (15 or more) to run, {run} did");
        Assert.Equal(0, process.ExitCode);
    }

    [GeneratedRegex(@"benchmarks: (\d+) run, (\d+) successful, (\d+) failed")]
    private static partial Regex SummaryLine();
}
