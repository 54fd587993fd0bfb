using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests.Fleet;

/// <summary>
/// HAProxy (Debian's package) run with the fleet's own configuration, docker/fleet/haproxy.cfg, for
/// replicas on loopback: the file is used as it is, but for the replicas' addresses and check
/// ports, and its listeners on free loopback ports. Killed on dispose.
/// </summary>
internal sealed partial class HaproxyProcess : IAsyncDisposable
{
    private const string Program = "/usr/sbin/haproxy";
    private readonly Process _process;
    private readonly StringBuilder _output = new();

    private HaproxyProcess(Process process, IReadOnlyDictionary<int, int> frontends)
    {
        _process = process;
        Frontends = frontends;
        _process.OutputDataReceived += (_, e) => Append(e.Data);
        _process.ErrorDataReceived += (_, e) => Append(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    /// <summary>The port each of the configuration's listeners (8808, 8809, 8080, 50051, 8404) has here.</summary>
    public IReadOnlyDictionary<int, int> Frontends { get; }

    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    /// <param name="directory">Where the rewritten configuration goes.</param>
    /// <param name="replicas">For host-1, host-2, …: the loopback port each configured port (8808, 8809, 8080, 50051) has on that replica.</param>
    public static HaproxyProcess Start(TemporaryDirectory directory, IReadOnlyList<IReadOnlyDictionary<int, int>> replicas)
    {
        if (!File.Exists(Program))
        {
            throw new InvalidOperationException($"{Program} is not installed; the fleet tests need it. `bash .ci/run` installs it (apt-get install haproxy).");
        }

        var configuration = File.ReadAllText(RepositoryPaths.Combine("docker", "fleet", "haproxy.cfg"));
        var frontends = new Dictionary<int, int>();
        configuration = BindLine().Replace(configuration, m =>
        {
            var port = int.Parse(m.Groups["port"].Value, CultureInfo.InvariantCulture);
            frontends[port] = FreePort.OnLoopback();
            return $"bind 127.0.0.1:{frontends[port].ToString(CultureInfo.InvariantCulture)}";
        });
        configuration = ServerLine().Replace(configuration, m =>
        {
            var ports = replicas[int.Parse(m.Groups["replica"].Value, CultureInfo.InvariantCulture) - 1];
            var port = ports[int.Parse(m.Groups["port"].Value, CultureInfo.InvariantCulture)];
            return FormattableString.Invariant($"server {m.Groups["name"].Value} 127.0.0.1:{port} {m.Groups["options"].Value}check port {ports[50051]}");
        });
        // A change to the file that these rewrites miss must fail here, not test something else or listen beyond loopback.
        Assert.DoesNotMatch(@"host-\d+:", configuration);
        Assert.All(BindAny().Matches(configuration), m => Assert.StartsWith("bind 127.0.0.1:", m.Groups["bind"].Value, StringComparison.Ordinal));
        Assert.Equal([8080, 8404, 8808, 8809, 50051], frontends.Keys.Order());
        var path = directory.PathFor("haproxy.cfg");
        File.WriteAllText(path, configuration);
        var start = new ProcessStartInfo(Program) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[] { "-f", path, "-db" })
        {
            start.ArgumentList.Add(argument);
        }

        return new HaproxyProcess(Process.Start(start)!, frontends);
    }

    /// <summary>Sessions each server of a backend was given, from HAProxy's Prometheus endpoint.</summary>
    public async Task<IReadOnlyDictionary<string, long>> SessionsAsync(string backend) =>
        SessionsLine().Matches(await MetricsAsync()).Where(m => m.Groups["backend"].Value == backend)
            .ToDictionary(m => m.Groups["server"].Value, m => long.Parse(m.Groups["value"].Value, CultureInfo.InvariantCulture));

    /// <summary>
    /// Waits until each of the <paramref name="servers"/> replicas is UP in the four balanced backends with its
    /// gRPC health check passed (L7OK: the check ran and matched; a server starts UP before its first check),
    /// or, for <paramref name="down"/>, DOWN in all four.
    /// </summary>
    public Task WaitForHealthAsync(int servers, string? down = null) =>
        Eventually.HoldsAsync(async () =>
            {
                if (_process.HasExited)
                {
                    throw new InvalidOperationException($"HAProxy exited ({_process.ExitCode}):\n{Output}");
                }

                try
                {
                    // One scrape per poll: each server's state, and its last health check ("L7OK": the gRPC exchange passed).
                    var metrics = await MetricsAsync();
                    var states = PerServer(StatusLine(), metrics);
                    var checks = PerServer(CheckLine(), metrics);
                    return states.Count == 4 * servers && states.All(s => s.Key.Server == down
                        ? s.Value == "DOWN"
                        : s.Value == "UP" && checks.GetValueOrDefault(s.Key) == "L7OK");
                }
                catch (HttpRequestException)
                {
                    // Not listening yet.
                    return false;
                }
            },
            TestTimeout.Default,
            () => $"HAProxy's servers never all reached {(down is null ? "UP with their check passed" : $"UP, {down} DOWN")}; HAProxy said:\n{Output}");

    // The state a metric gives each (backend, server): the label of its series whose value is 1.
    private static Dictionary<(string Backend, string Server), string> PerServer(Regex series, string metrics) =>
        series.Matches(metrics).Where(m => m.Groups["value"].Value == "1")
            .ToDictionary(m => (m.Groups["backend"].Value, m.Groups["server"].Value), m => m.Groups["state"].Value);

    private async Task<string> MetricsAsync()
    {
        using var http = new HttpClient();
        return await http.GetStringAsync(new Uri(FormattableString.Invariant($"http://127.0.0.1:{Frontends[8404]}/metrics")));
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync().Bounded();
        }

        _process.Dispose();
    }

    private void Append(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.AppendLine(line);
            }
        }
    }

    [GeneratedRegex(@"bind :(?<port>\d+)")]
    private static partial Regex BindLine();

    [GeneratedRegex(@"server (?<name>host-(?<replica>\d+)) host-\d+:(?<port>\d+) (?<options>(?:proto h2 )?)check port 50051")]
    private static partial Regex ServerLine();

    [GeneratedRegex(@"haproxy_server_status\{proxy=""(?<backend>[^""]+)"",server=""(?<server>[^""]+)"",state=""(?<state>[^""]+)""\} (?<value>\d+)")]
    private static partial Regex StatusLine();

    [GeneratedRegex(@"^\s+(?<bind>bind \S+)", RegexOptions.Multiline)]
    private static partial Regex BindAny();

    [GeneratedRegex(@"haproxy_server_check_status\{proxy=""(?<backend>[^""]+)"",server=""(?<server>[^""]+)"",state=""(?<state>[^""]+)""\} (?<value>\d+)")]
    private static partial Regex CheckLine();

    [GeneratedRegex(@"haproxy_server_sessions_total\{proxy=""(?<backend>[^""]+)"",server=""(?<server>[^""]+)""\} (?<value>\d+)")]
    private static partial Regex SessionsLine();
}
