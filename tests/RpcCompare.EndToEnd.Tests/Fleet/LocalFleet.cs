using System.Globalization;
using RpcCompare.Bindings;
using RpcCompare.Testing;

namespace RpcCompare.EndToEnd.Tests.Fleet;

/// <summary>
/// The fleet of docker/fleet/compose.yaml without containers: a redis-server, host replicas sharing
/// topics through it (--push-redis), each with its TCP bindings on loopback ports of its own, and
/// HAProxy in front with the fleet's configuration. Everything bound to 127.0.0.1; stopped on dispose.
/// </summary>
internal sealed class LocalFleet : IAsyncDisposable
{
    /// <summary>The bindings the balancer serves, with the port each has in the fleet's configuration.</summary>
    public static readonly IReadOnlyDictionary<string, int> Balanced = new Dictionary<string, int>
    {
        [BindingNames.WcfNetTcp] = 8808,
        [BindingNames.FastTcp] = 8809,
        [BindingNames.WcfHttp] = 8080,
        [BindingNames.GrpcTcp] = 50051,
    };

    private static readonly Dictionary<string, string> s_portKeys = new()
    {
        [BindingNames.WcfNetTcp] = "--WcfNetTcp:Port",
        [BindingNames.FastTcp] = "--FastTcp:Port",
        [BindingNames.WcfHttp] = "--WcfHttp:Port",
        [BindingNames.GrpcTcp] = "--GrpcTcp:Port",
    };

    private readonly TemporaryDirectory _directory;

    private LocalFleet(TemporaryDirectory directory, RedisServer redis, List<Replica> replicas, HaproxyProcess balancer)
    {
        _directory = directory;
        Redis = redis;
        Replicas = replicas;
        Balancer = balancer;
        BalancerEndpoints = Balanced.ToDictionary(b => b.Key, b => Address(b.Key, balancer.Frontends[b.Value]));
        BalancerEndpointsFile = directory.PathFor("balancer.json");
        EndpointsFile.WriteAsync(BalancerEndpointsFile, new HostEndpoints(BalancerEndpoints)).GetAwaiter().GetResult();
    }

    public RedisServer Redis { get; }

    public IReadOnlyList<Replica> Replicas { get; }

    public HaproxyProcess Balancer { get; }

    /// <summary>Where clients reach the fleet: the balancer's listener of each binding.</summary>
    public IReadOnlyDictionary<string, string> BalancerEndpoints { get; }

    /// <summary>The same as an endpoints file, for rpcc.</summary>
    public string BalancerEndpointsFile { get; }

    /// <summary>The replicas' shared data root.</summary>
    public string DataRoot => _directory.PathFor("data");

    public string Output => $"HAProxy:\n{Balancer.Output}\n" + string.Join("\n", Replicas.Select(r => $"{r.Name}:\n{r.Host.Output}"));

    /// <param name="count">How many replicas.</param>
    /// <param name="hostArguments">More arguments for every replica (telemetry, say).</param>
    public static async Task<LocalFleet> StartAsync(int count = 3, IReadOnlyList<string>? hostArguments = null)
    {
        var directory = new TemporaryDirectory("rc-fleet-");
        RedisServer? redis = null;
        List<Replica> replicas = [];
        HaproxyProcess? balancer = null;
        try
        {
            redis = await RedisServer.StartAsync();
            for (var i = 1; i <= count; i++)
            {
                var ports = Balanced.ToDictionary(b => b.Key, _ => FreePort.OnLoopback());
                var name = $"host-{i.ToString(CultureInfo.InvariantCulture)}";
                // One data root, as the fleet's shared volume: host-1 seeds it, the others only use it.
                string[] arguments = ["--bindings", string.Join(',', Balanced.Keys), "--push-redis", redis.Configuration,
                    "--endpoints-file", directory.PathFor(name + ".json"), "--socket-dir", directory.PathFor(name),
                    "--data-root", directory.PathFor("data"), "--DataRoot:Seed", i == 1 ? "true" : "false",
                    .. ports.SelectMany(p => new[] { s_portKeys[p.Key], p.Value.ToString(CultureInfo.InvariantCulture) }), .. hostArguments ?? []];
                replicas.Add(new Replica(name, HostProcess.Start(arguments), ports));
            }

            foreach (var replica in replicas)
            {
                replica.Endpoints = await replica.Host.WaitForEndpointsAsync(directory.PathFor(replica.Name + ".json"));
            }

            balancer = HaproxyProcess.Start(directory, [.. replicas.Select(r => (IReadOnlyDictionary<int, int>)r.Ports.ToDictionary(p => Balanced[p.Key], p => p.Value))]);
            var fleet = new LocalFleet(directory, redis, replicas, balancer);
            await balancer.WaitForHealthAsync(count);
            return fleet;
        }
        catch
        {
            await StopAsync(balancer, replicas, redis, directory);
            throw;
        }
    }

    public async ValueTask DisposeAsync() => await StopAsync(Balancer, Replicas, Redis, _directory);

    private static async Task StopAsync(HaproxyProcess? balancer, IEnumerable<Replica> replicas, RedisServer? redis, TemporaryDirectory directory)
    {
        if (balancer is not null)
        {
            await balancer.DisposeAsync();
        }

        foreach (var replica in replicas)
        {
            await replica.Host.DisposeAsync();
        }

        if (redis is not null)
        {
            await redis.DisposeAsync();
        }

        directory.Dispose();
    }

    private static string Address(string binding, int port) => binding switch
    {
        BindingNames.WcfNetTcp => $"net.tcp://127.0.0.1:{port}",
        BindingNames.FastTcp => $"tcp://127.0.0.1:{port}",
        _ => $"http://127.0.0.1:{port}",
    };

    /// <summary>One host of the fleet: its name in the balancer's configuration, its process, its ports and endpoints.</summary>
    internal sealed class Replica(string name, HostProcess host, IReadOnlyDictionary<string, int> ports)
    {
        public string Name { get; } = name;

        public HostProcess Host { get; } = host;

        public IReadOnlyDictionary<string, int> Ports { get; } = ports;

        public IReadOnlyDictionary<string, string> Endpoints { get; set; } = new Dictionary<string, string>();
    }
}
