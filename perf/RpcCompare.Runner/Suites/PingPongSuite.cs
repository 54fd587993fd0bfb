using RpcCompare.Bindings;
using RpcCompare.Contracts;
using RpcCompare.Runner.Hosting;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>Chromium's IPC ping-pong: echo round trips at its message sizes, against the native floor.</summary>
internal sealed class PingPongSuite : ISuite
{
    public static readonly int[] Sizes = [12, 144, 1_728, 20_736, 248_832];

    public const string SuiteName = "pingpong";

    public string Name => SuiteName;

    public string Description => "Echo round trips at 12 B to 248,832 B, client allocations per round trip, and the ratio to a native C ping-pong.";

    /// <summary>The raw pipe's second dispatch (replies produced on the I/O thread), what TLS costs per byte on the TCP bindings, and fast-uds's waiting modes, Task calls on the caller's thread and its reflection path (allocations per round trip without generated code).</summary>
    public IReadOnlyList<VariantUse> Variants { get; } =
    [
        new(BindingVariant.InlineCompletions, new HashSet<string> { BindingNames.Pipes }),
        new(BindingVariant.Tls, BindingVariant.TcpBindings),
        new(BindingVariant.MutualTls, BindingVariant.TcpBindings),
        new(BindingVariant.FastLowLatency, BindingVariant.FastBindings),
        new(BindingVariant.FastNoSpin, BindingVariant.FastBindings),
        new(BindingVariant.FastCallerThread, BindingVariant.FastBindings),
        new(BindingVariant.FastReflection, BindingVariant.FastBindings),
    ];

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        foreach (var target in targets)
        {
            foreach (var size in Sizes)
            {
                yield return new(Name, "echo", target, size, 2L * size, s =>
                {
                    var payloads = s.Get<IPayloadService>();
                    var request = new BytesMessage { Data = new byte[size] };
                    return () => payloads.EchoBytesAsync(request);
                });
            }
        }
    }
}
