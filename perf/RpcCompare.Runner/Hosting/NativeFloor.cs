using System.Globalization;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Hosting;

/// <summary>
/// The C ping-pong of perf/native/pingpong.c, compiled with the machine's C compiler when there is
/// one. Every binding's ping-pong rate is also reported as a ratio to it.
/// </summary>
internal sealed class NativeFloor : IDisposable
{
    private readonly string _directory;
    private readonly string? _executable;

    private NativeFloor(string directory, string? executable, string description)
    {
        _directory = directory;
        _executable = executable;
        Description = description;
    }

    /// <summary>The compiler used, or why there is no floor.</summary>
    public string Description { get; }

    public bool IsAvailable => _executable is not null;

    public static NativeFloor Build()
    {
        var directory = Directory.CreateTempSubdirectory("rpccompare-native-").FullName;
        var source = Path.Combine(AppContext.BaseDirectory, "native", "pingpong.c");
        var executable = Path.Combine(directory, "pingpong");
        foreach (var compiler in new[] { "cc", "gcc", "clang" })
        {
            var (exitCode, output) = ChildProcess.Run(compiler, "-O2", "-o", executable, source);
            if (exitCode == 0)
            {
                var version = ChildProcess.Run(compiler, "--version").Output.Split('\n')[0].Trim();
                return new NativeFloor(directory, executable, $"perf/native/pingpong.c built with {compiler} -O2 ({version})");
            }

            if (exitCode != -1)
            {
                return new NativeFloor(directory, null, $"{compiler} failed to build perf/native/pingpong.c: {output.Trim()}");
            }
        }

        return new NativeFloor(directory, null, "no C compiler (cc, gcc, clang) on this machine, so no native floor was measured");
    }

    /// <summary>Runs the ping-pong once per trial and returns round trips per second.</summary>
    public Spread Measure(int size, MeasurementSettings settings, bool pin)
    {
        var executable = _executable ?? throw new InvalidOperationException(Description);
        string[] arguments =
        [
            size.ToString(CultureInfo.InvariantCulture),
            ((int)settings.TrialDuration.TotalMilliseconds).ToString(CultureInfo.InvariantCulture),
            .. pin ? new[] { "pin" } : [],
        ];
        var rates = new double[settings.Trials];
        for (var i = 0; i < rates.Length; i++)
        {
            var (exitCode, output) = ChildProcess.Run(executable, arguments);
            if (exitCode != 0)
            {
                throw new MeasurementException($"The native ping-pong at {size} bytes failed (exit {exitCode}): {output.Trim()}");
            }

            rates[i] = Parse(output);
        }

        return new Spread(Statistics.Median(rates), rates.Min(), rates.Max());
    }

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    private static double Parse(string output)
    {
        // roundtrips=N seconds=S
        var fields = output.Trim().Split(' ').Select(f => f.Split('=')).ToDictionary(f => f[0], f => f[1]);
        return double.Parse(fields["roundtrips"], CultureInfo.InvariantCulture) / double.Parse(fields["seconds"], CultureInfo.InvariantCulture);
    }
}
