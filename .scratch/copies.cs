#:package protobuf-net@3.2.56
#:property ManagePackageVersionsCentrally=false
#:property TreatWarningsAsErrors=false
using System.Buffers;
using System.Diagnostics;
using ProtoBuf;

var msg = new BytesMessage { Data = new byte[248_832] };
new Random(1).NextBytes(msg.Data);
var writer = new ArrayBufferWriter<byte>(300_000);
const int N = 20_000;
for (int round = 0; round < 3; round++)
{
    var sw = Stopwatch.StartNew();
    for (int i = 0; i < N; i++) { writer.ResetWrittenCount(); Serializer.Serialize(writer, msg); }
    var ser = sw.Elapsed.TotalMicroseconds / N;
    var bytes = writer.WrittenMemory;
    sw.Restart();
    BytesMessage? m = null;
    for (int i = 0; i < N; i++) { m = Serializer.Deserialize<BytesMessage>(bytes.Span); }
    var de = sw.Elapsed.TotalMicroseconds / N;
    sw.Restart();
    var dst = new byte[248_832];
    for (int i = 0; i < N; i++) { msg.Data.AsSpan().CopyTo(dst); }
    var cp = sw.Elapsed.TotalMicroseconds / N;
    sw.Restart();
    for (int i = 0; i < N; i++) { var a = GC.AllocateUninitializedArray<byte>(248_832); a[0] = 1; }
    var un = sw.Elapsed.TotalMicroseconds / N;
    sw.Restart();
    for (int i = 0; i < N; i++) { var a = new byte[248_832]; a[0] = 1; }
    var zr = sw.Elapsed.TotalMicroseconds / N;
    Console.WriteLine($"serialize {ser:F1} µs, deserialize {de:F1} µs, memcpy {cp:F1} µs, alloc uninit {un:F1} µs, alloc zeroed {zr:F1} µs, gen0 {GC.CollectionCount(0)} gen2 {GC.CollectionCount(2)}");
}

[ProtoContract]
public class BytesMessage { [ProtoMember(1)] public byte[] Data { get; set; } = []; }
