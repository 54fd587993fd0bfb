using System.Globalization;

namespace RpcCompare.Perf.Hosting;

/// <summary>
/// Puts processes on one CPU, as Chromium's IPC perftests do, so a ping-pong measures the
/// messaging and not the wake-up of another core.
/// </summary>
/// <remarks>
/// Process.ProcessorAffinity on Linux sets the affinity of the main thread only, and a .NET
/// process already has many threads when it can be reached; <c>taskset -a</c> sets it for every
/// thread, and threads created later inherit it.
/// </remarks>
public static class CpuPinning
{
    public static void PinToCpu0(int processId)
    {
        if (!OperatingSystem.IsLinux())
        {
            throw new PlatformNotSupportedException("--pin is implemented with taskset(1) on Linux only.");
        }

        var (exitCode, output) = ChildProcess.Run("taskset", "-a", "-p", "1", processId.ToString(CultureInfo.InvariantCulture));
        if (exitCode != 0)
        {
            throw new InvalidOperationException($"taskset could not pin process {processId} to CPU 0: {(exitCode == -1 ? "taskset is not installed" : output.Trim())}");
        }
    }

    public static void PinSelfToCpu0() => PinToCpu0(Environment.ProcessId);
}
