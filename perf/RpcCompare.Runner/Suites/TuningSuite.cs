using RpcCompare.Bindings;
using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>
/// What each knob the product sets is worth: every binding as the product configures it, side by
/// side with the same binding with one knob at the framework's default (or the other way round),
/// under the load where the documentation says the knob matters.
/// </summary>
internal sealed class TuningSuite : ISuite
{
    public const string Instancing = "instancing";
    public const string Http2Connections = "HTTP/2 connections";
    public const string SocketCompletions = "socket completions";

    /// <summary>Concurrent clients of the instancing rows: enough sessions to contend on two cores.</summary>
    public const int InstancingClients = 16;

    /// <summary>Calls in flight on one gRPC channel: past Kestrel's 100 concurrent streams per connection.</summary>
    public const int Http2Clients = 128;

    /// <summary>One client (latency) and several (throughput) for the inline completions rows.</summary>
    public static readonly int[] CompletionClients = [1, 16];

    private static readonly List<string> s_order = [.. BindingNames.All];
    // The fast bindings block in their socket calls on both sides: they have no asynchronous completions to run inline.
    private static readonly HashSet<string> s_asyncSocketBindings = [.. BindingNames.All.Where(b => b is not (BindingNames.InProc or BindingNames.FastUds or BindingNames.FastTcp))];

    public string Name => "tuning";

    public string Description =>
        $"Each knob against the product's setting: CoreWCF instancing ({InstancingClients} clients), gRPC's extra HTTP/2 connections ({Http2Clients} calls on one channel), " +
        "inline socket completions in the host (1 and 16 clients).";

    public IReadOnlyList<VariantUse> Variants { get; } =
    [
        new(BindingVariant.WcfPerSession, BindingVariant.WcfBindings),
        new(BindingVariant.WcfSerialized, BindingVariant.WcfBindings),
        new(BindingVariant.GrpcOneConnection, BindingVariant.GrpcBindings),
        new(BindingVariant.InlineCompletions, s_asyncSocketBindings),
    ];

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        var wcf = Columns(targets, BindingVariant.WcfBindings, BindingVariant.WcfPerSession, BindingVariant.WcfSerialized);
        var grpc = Columns(targets, BindingVariant.GrpcBindings, BindingVariant.GrpcOneConnection);
        var completions = Columns(targets, s_asyncSocketBindings, BindingVariant.InlineCompletions);
        var rows = new List<(string Operation, int Clients, List<BindingTarget> Columns, Func<RpcClientSession, Func<Task>> Call)>
        {
            // Ping shows the dispatch cost alone; ReadDirectory has work of its own that a serialized instance makes every other caller wait for.
            ($"Ping · {Instancing}", InstancingClients, wcf, Ping),
            ($"ReadDirectory · {Instancing}", InstancingClients, wcf, ReadDirectory),
            ($"Ping · {Http2Connections}", Http2Clients, grpc, Ping),
        };
        rows.AddRange(CompletionClients.Select(clients => ($"Ping · {SocketCompletions}", clients, completions, (Func<RpcClientSession, Func<Task>>)Ping)));
        foreach (var (operation, clients, columns, call) in rows)
        {
            foreach (var target in columns)
            {
                yield return new(Name, operation, target, clients, 0, call, clients);
            }
        }
    }

    // A knob's row: each binding it applies to, followed by its variants of that binding.
    private static List<BindingTarget> Columns(IReadOnlyList<BindingTarget> targets, IReadOnlySet<string> bindings, params BindingVariant[] variants) =>
        [.. targets.Where(t => bindings.Contains(t.Binding) && (t.Variant is null || variants.Any(v => v.Suffix == t.Variant)))
            .OrderBy(t => s_order.IndexOf(t.Binding))];

    private static Func<Task> Ping(RpcClientSession session)
    {
        var files = session.Get<IFileService>();
        var request = new PingRequest();
        return () => files.PingAsync(request);
    }

    private static Func<Task> ReadDirectory(RpcClientSession session)
    {
        var files = session.Get<IFileService>();
        var request = new ReadDirectoryRequest { Path = "files" };
        return () => files.ReadDirectoryAsync(request);
    }
}
