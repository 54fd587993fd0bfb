using RpcCompare.Contracts;
using RpcCompare.Runner.Measurement;

namespace RpcCompare.Runner.Suites;

/// <summary>Throughput: bytes, 32-bit records and strings from 10 B to 10 MB, one way.</summary>
internal sealed class PayloadSuite : ISuite
{
    public static readonly int[] Sizes = [10, 100_000, 10_000_000];

    public string Name => "payload";

    public string Description => "byte[], Rgba32[] and string payloads of 10 B, 100 kB and 10 MB sent one way: MB/s.";

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
            }
        }
    }
}
