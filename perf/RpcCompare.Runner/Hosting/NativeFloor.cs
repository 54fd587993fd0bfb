using System.Globalization;
using RpcCompare.Bindings;
using RpcCompare.Perf.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Hosting;

/// <summary>
/// The C ping-pong of perf/native/pingpong.c, compiled with the machine's C compiler when there is
/// one, in both of its waiting modes over a Unix socket and over TCP on 127.0.0.1. Every binding's
/// ping-pong rate is also reported as a ratio to the faster of the two modes at that size over its
/// own kind of socket: a TCP binding pays the loopback TCP stack, which a Unix socket does not have.
/// </summary>
internal sealed class NativeFloor : IDisposable
{
    /// <summary>Blocking read() and write(): each hop sleeps and is woken.</summary>
    public const string BlockingLabel = "native-uds";

    /// <summary>Both sides poll the non-blocking socket and never sleep: a busy core per side.</summary>
    public const string SpinningLabel = "native-uds/spin";

    /// <summary>Blocking, over a TCP connection on 127.0.0.1 (Nagle off).</summary>
    public const string TcpBlockingLabel = "native-tcp";

    /// <summary>Spinning, over a TCP connection on 127.0.0.1 (Nagle off).</summary>
    public const string TcpSpinningLabel = "native-tcp/spin";

    /// <summary>The floors measured at every ping-pong size, in turn order.</summary>
    public static readonly IReadOnlyList<string> Labels = [BlockingLabel, SpinningLabel, TcpBlockingLabel, TcpSpinningLabel];

    /// <summary>The kind of socket a floor, or a binding, travels over: what its ratio to the floor is taken against.</summary>
    public enum SocketKind
    {
        Unix,
        Tcp,
    }

    /// <summary>The socket the floor <paramref name="label"/> (one of <see cref="Labels"/>) travels over.</summary>
    public static SocketKind KindOfFloor(string label) =>
        label is TcpBlockingLabel or TcpSpinningLabel ? SocketKind.Tcp : SocketKind.Unix;

    /// <summary>
    /// The socket whose floor <paramref name="binding"/>'s ping-pong is compared with: TCP for a binding that
    /// travels over TCP (<see cref="BindingNames.TravelsOverTcp"/>), a Unix socket for every other (Unix
    /// sockets, pipes, which are Unix sockets on Linux, and inproc).
    /// </summary>
    public static SocketKind KindOfBinding(string binding) => BindingNames.TravelsOverTcp(binding) ? SocketKind.Tcp : SocketKind.Unix;

    private readonly string _directory;
    private readonly string? _executable;

    private NativeFloor(string directory, string? executable, string description)
    {
        _directory = directory;
        _executable = executable;
        Description = description;
    }

    /// <summary>The floors <paramref name="bindings"/> are compared with (<see cref="KindOfBinding"/>), in <see cref="Labels"/>' order.</summary>
    public static IReadOnlyList<string> LabelsFor(IEnumerable<string> bindings)
    {
        var sockets = bindings.Select(KindOfBinding).ToHashSet();
        return [.. Labels.Where(label => sockets.Contains(KindOfFloor(label)))];
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

    /// <summary>One trial: round trips per second of the C ping-pong <paramref name="label"/> at <paramref name="size"/> bytes.</summary>
    /// <param name="label">One of <see cref="Labels"/>.</param>
    /// <param name="size">The message size, each way.</param>
    /// <param name="duration">How long the trial counts round trips.</param>
    /// <param name="placement">
    /// As the runner and host are placed: on separate cores, CPUs 0 and 1; on the same core, both on CPU 0 when
    /// blocking and CPUs 0 and 1 when spinning (two spinners on one core would only take turns).
    /// </param>
    public double MeasureTrial(string label, int size, TimeSpan duration, CpuPlacement placement)
    {
        var executable = _executable ?? throw new InvalidOperationException(Description);
        var (exitCode, output) = ChildProcess.Run(executable, [.. Arguments(label, size, duration, placement)]);
        return exitCode == 0
            ? Parse(output)
            : throw new MeasurementException($"The native ping-pong {label} at {size} bytes failed (exit {exitCode}): {output.Trim()}");
    }

    /// <summary>pingpong.c's command line for one trial (usage in its header comment).</summary>
    internal static List<string> Arguments(string label, int size, TimeSpan duration, CpuPlacement placement)
    {
        List<string> arguments = [size.ToString(CultureInfo.InvariantCulture), ((int)duration.TotalMilliseconds).ToString(CultureInfo.InvariantCulture)];
        if (placement != CpuPlacement.None)
        {
            arguments.Add(placement == CpuPlacement.SeparateCores ? "split" : "pin");
        }

        if (!Labels.Contains(label))
        {
            throw new ArgumentOutOfRangeException(nameof(label), label, "not a native floor");
        }

        if (label is SpinningLabel or TcpSpinningLabel)
        {
            arguments.Add("spin");
        }

        if (KindOfFloor(label) == SocketKind.Tcp)
        {
            arguments.Add("tcp");
        }

        return arguments;
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
