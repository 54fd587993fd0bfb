using System.Runtime.Serialization;
using System.Xml;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using RpcCompare.Bindings.Pipes.Protocol;
using RpcCompare.Contracts;

namespace RpcCompare.Benchmarks;

/// <summary>
/// What each binding's serializer costs per message, round trip (encode then decode): the raw pipe
/// encoding (baseline) against DataContractSerializer over the binary XML encoding that WCF's
/// NetTcp binding uses. protobuf-net, gRPC's serializer here, is not measured: protobuf-net.Core
/// does not restore from this machine's package source (docs/packages.md).
/// </summary>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class SerializerBenchmarks
{
    private readonly FrameBuffer _frame = new();
    private readonly MemoryStream _stream = new();
    private readonly DataContractSerializer _directorySerializer = new(typeof(ReadDirectoryReply));
    private readonly DataContractSerializer _writeAtSerializer = new(typeof(WriteAtRequest));
    private readonly DataContractSerializer _bytesSerializer = new(typeof(BytesMessage));

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("ReadDirectoryReply")]
    public ReadDirectoryReply RawPipe_ReadDirectoryReply() => RawRoundTrip(Messages.Directory, MessageCodec.WriteReadDirectoryReply, MessageCodec.ReadReadDirectoryReply);

    [Benchmark]
    [BenchmarkCategory("ReadDirectoryReply")]
    public ReadDirectoryReply BinaryXml_ReadDirectoryReply() => (ReadDirectoryReply)BinaryXmlRoundTrip(_directorySerializer, Messages.Directory);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("WriteAtRequest")]
    public WriteAtRequest RawPipe_WriteAtRequest() => RawRoundTrip(Messages.WriteAt, MessageCodec.WriteWriteAtRequest, MessageCodec.ReadWriteAtRequest);

    [Benchmark]
    [BenchmarkCategory("WriteAtRequest")]
    public WriteAtRequest BinaryXml_WriteAtRequest() => (WriteAtRequest)BinaryXmlRoundTrip(_writeAtSerializer, Messages.WriteAt);

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("BytesMessage")]
    public BytesMessage RawPipe_Bytes1K() => RawRoundTrip(Messages.Bytes1K, MessageCodec.WriteBytesMessage, MessageCodec.ReadBytesMessage);

    [Benchmark]
    [BenchmarkCategory("BytesMessage")]
    public BytesMessage BinaryXml_Bytes1K() => (BytesMessage)BinaryXmlRoundTrip(_bytesSerializer, Messages.Bytes1K);

    private T RawRoundTrip<T>(T message, PayloadEncoder<T> encode, PayloadDecoder<T> decode)
    {
        _frame.Reset();
        encode(_frame, message);
        return MessageCodec.Decode(_frame.Complete(0).Span[PipeFrame.HeaderSize..], decode);
    }

    private object BinaryXmlRoundTrip(DataContractSerializer serializer, object message)
    {
        _stream.SetLength(0);
        using (var writer = XmlDictionaryWriter.CreateBinaryWriter(_stream, null, null, ownsStream: false))
        {
            serializer.WriteObject(writer, message);
        }

        // The reader closes the stream it reads, so it reads a view of the written bytes.
        using var input = new MemoryStream(_stream.GetBuffer(), 0, (int)_stream.Length, writable: false);
        using var reader = XmlDictionaryReader.CreateBinaryReader(input, XmlDictionaryReaderQuotas.Max);
        return serializer.ReadObject(reader)!;
    }
}
