using RpcCompare.Client;
using RpcCompare.Contracts;
using RpcCompare.Service;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>
/// Throughput: bytes, 32-bit records and strings from 10 B to 10 MB, one way; and the same sizes
/// as a Stream (WCF's streamed transfer, gRPC chunks) sent and received, on the bindings that carry one.
/// </summary>
internal sealed class PayloadSuite : ISuite
{
    public static readonly int[] Sizes = [10, 100_000, 10_000_000];

    /// <summary>The streamed rows: a Stream sent one way (the service counts it) and one received (the service generates it).</summary>
    public const string StreamSent = "stream", StreamReceived = "stream (download)";

    // Only asked what each binding carries: it never connects.
    private static readonly Lazy<RpcClientFactory> s_checks = new(() => RpcClientFactory.CreateDefault());

    public string Name => "payload";

    public string Description => "byte[], Rgba32[] and string payloads of 10 B, 100 kB and 10 MB sent one way, and a Stream of each size sent and received: MB/s.";

    public IEnumerable<Workload> Workloads(IReadOnlyList<BindingTarget> targets)
    {
        foreach (var target in targets)
        {
            foreach (var size in Sizes)
            {
                yield return new(Name, "bytes", target, size, size, s =>
                {
                    var payloads = s.Get<IPayloadService>();
                    var request = new BytesMessage { Data = new byte[size] };
                    return () => payloads.SendBytesAsync(request);
                });
                var records = Math.Max(1, size / 4);
                yield return new(Name, "records", target, size, records * 4L, s =>
                {
                    var payloads = s.Get<IPayloadService>();
                    var request = new RecordsMessage { Records = [.. Enumerable.Range(0, records).Select(i => new Rgba32 { R = (byte)i, A = 255 })] };
                    return () => payloads.SendRecordsAsync(request);
                });
                yield return new(Name, "string", target, size, size, s =>
                {
                    var payloads = s.Get<IPayloadService>();
                    var request = new StringMessage { Text = new string('x', size) };
                    return () => payloads.SendStringAsync(request);
                });
                if ((target.ClientFactory ?? s_checks.Value).Check(target.Binding, typeof(IFileTransferService)).Count > 0)
                {
                    // The pipes baseline and the comparison engines carry no Stream: no cell, and the report says so by its absence.
                    continue;
                }

                yield return new(Name, StreamSent, target, size, size, s =>
                {
                    var files = s.Get<IFileTransferService>();
                    return () => files.CountAsync(new PatternStream(size));
                });
                yield return new(Name, StreamReceived, target, size, size, s =>
                {
                    var files = s.Get<IFileTransferService>();
                    var request = new PatternRequest { Length = size };
                    // One buffer per session: the loop measures the transfer, not an allocation.
                    var buffer = new byte[64 * 1024];
                    return async () =>
                    {
                        var stream = await files.ReadPatternAsync(request);
                        await using (stream.ConfigureAwait(false))
                        {
                            await StreamDrain.ReadToEndAsync(stream, buffer).ConfigureAwait(false);
                        }
                    };
                });
            }
        }
    }
}
