using System.Globalization;
using System.Text.Json.Serialization;

namespace RpcCompare.Perf.Hosting;

/// <summary>Where --pin puts the measuring processes.</summary>
[JsonConverter(typeof(JsonStringEnumConverter<CpuPlacement>))]
public enum CpuPlacement
{
    /// <summary>Not pinned: the scheduler places every thread.</summary>
    None,

    /// <summary>Runner on CPU 0, host on CPU 1: each side keeps a core of its own and its caches (the default of --pin).</summary>
    SeparateCores,

    /// <summary>Runner and host both on CPU 0, as Chromium's IPC perftests do: no cross-core wake-up, but the two sides take turns on one core.</summary>
    SameCore,
}

/// <summary>
/// Puts processes on a CPU for --pin, so a ratio measures the bindings rather than where the
/// scheduler happened to put them.
/// </summary>
/// <remarks>
/// Process.ProcessorAffinity on Linux sets the affinity of the main thread only, and a .NET
/// process already has many threads when it can be reached; <c>taskset -a</c> sets it for every
/// thread, and threads created later inherit it.
/// </remarks>
public static class CpuPinning
{
    /// <summary>The runner's CPU under any placement.</summary>
    public const int RunnerCpu = 0;

    /// <summary>The host's CPU under <paramref name="placement"/> (pinned placements only).</summary>
    public static int HostCpu(CpuPlacement placement) => placement == CpuPlacement.SeparateCores ? 1 : 0;

    /// <summary>The placement in words, as reports print it.</summary>
    public static string Describe(CpuPlacement placement) => placement switch
    {
        CpuPlacement.SeparateCores => "runner on CPU 0, host on CPU 1",
        CpuPlacement.SameCore => "runner and host on CPU 0",
        _ => "no",
    };

    /// <summary>
    /// The command that starts a program on CPU <paramref name="cpu"/> (taskset -c N, then the program and its
    /// arguments): pinned before its runtime starts, so every thread it ever creates inherits the CPU.
    /// </summary>
    public static IReadOnlyList<string> StartOn(int cpu)
    {
        CheckCanPin(cpu);
        return ["taskset", "-c", cpu.ToString(CultureInfo.InvariantCulture)];
    }

    /// <summary>Every thread of this process, now and later, on CPU <paramref name="cpu"/>.</summary>
    public static void PinSelf(int cpu)
    {
        CheckCanPin(cpu);
        var processId = Environment.ProcessId;
        var (exitCode, output) = ChildProcess.Run("taskset", "-a", "-p", (1L << cpu).ToString("x", CultureInfo.InvariantCulture), processId.ToString(CultureInfo.InvariantCulture));
        if (exitCode != 0)
        {
            throw new InvalidOperationException($"taskset could not pin process {processId} to CPU {cpu}: {(exitCode == -1 ? "taskset is not installed" : output.Trim())}");
        }
    }

    private static void CheckCanPin(int cpu)
    {
        if (!OperatingSystem.IsLinux())
        {
            throw new PlatformNotSupportedException("--pin is implemented with taskset(1) on Linux only.");
        }

        if (cpu >= Environment.ProcessorCount)
        {
            throw new InvalidOperationException($"--pin needs CPU {cpu}, and this machine has {Environment.ProcessorCount} logical CPU(s); use --pin same.");
        }
    }
}
