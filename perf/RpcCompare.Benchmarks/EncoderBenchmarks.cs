using System.Runtime.Serialization;
using System.ServiceModel.Channels;
using System.Text;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Reports;
using ProtoBuf.Meta;
using RpcCompare.Bindings.Pipes.Protocol;

namespace RpcCompare.Benchmarks;

/// <summary>
/// What each binding's encoding costs per message, as a round trip (encode, then decode), for every
/// DTO of the contracts: the raw pipe's hand-written codec (baseline), protobuf-net as the gRPC
/// bindings use it, and a whole SOAP message through WCF's binary encoder (NetTcp, UDS) and text
/// encoder (BasicHttp), with the DataContractSerializer body the bindings write. Every DTO is one
/// value of <see cref="Case"/>, so BenchmarkDotNet puts the ratios to the raw pipe per DTO.
/// </summary>
[MemoryDiagnoser]
[Config(typeof(EncoderBenchmarksConfig))]
public class EncoderBenchmarks
{
    private readonly FrameBuffer _frame = new();
    private readonly MemoryStream _stream = new();
    private readonly BufferManager _buffers = BufferManager.CreateBufferManager(64 * 1024 * 1024, 16 * 1024 * 1024);
    // NetTcpBinding's encoder: binary XML, SOAP 1.2 with WS-Addressing 1.0 (its default, spelled out).
    private readonly MessageEncoder _binary = new BinaryMessageEncodingBindingElement { MessageVersion = MessageVersion.Soap12WSAddressing10 }.CreateMessageEncoderFactory().Encoder;

    // BasicHttpBinding's encoder: UTF-8 text XML, SOAP 1.1 without addressing.
    private readonly MessageEncoder _text = new TextMessageEncodingBindingElement(MessageVersion.Soap11, Encoding.UTF8).CreateMessageEncoderFactory().Encoder;

    /// <summary>The DTO under test; the column BenchmarkDotNet groups the ratios by.</summary>
    [ParamsSource(nameof(Cases))]
    public EncoderCase Case { get; set; } = null!;

    public static IEnumerable<EncoderCase> Cases() =>
    [
        // Ping has no body on the pipe: the client writes it with MessageCodec.WriteEmpty, and both
        // ends read nothing and use a cached instance (PipeDispatcher, PipeRpcClient), as here; its
        // raw figure is the frame header alone.
        EncoderCase.Of(Messages.PingRequest, MessageCodec.WriteEmpty, static (ref PayloadReader _) => Messages.PingRequest),
        EncoderCase.Of(Messages.PingReply, MessageCodec.WriteEmpty, static (ref PayloadReader _) => Messages.PingReply),
        EncoderCase.Of(Messages.ReadDirectoryRequest, MessageCodec.WriteReadDirectoryRequest, MessageCodec.ReadReadDirectoryRequest),
        EncoderCase.Of(Messages.Directory, MessageCodec.WriteReadDirectoryReply, MessageCodec.ReadReadDirectoryReply, "ReadDirectoryReply (100 entries)"),
        EncoderCase.Of(Messages.WriteAt, MessageCodec.WriteWriteAtRequest, MessageCodec.ReadWriteAtRequest),
        EncoderCase.Of(Messages.WriteAtReply, MessageCodec.WriteWriteAtReply, MessageCodec.ReadWriteAtReply),
        EncoderCase.Of(Messages.FortyOne, MessageCodec.WriteIntMessage, MessageCodec.ReadIntMessage),
        EncoderCase.Of(Messages.Point, MessageCodec.WritePointMessage, MessageCodec.ReadPointMessage),
        EncoderCase.Of(Messages.Bytes1K, MessageCodec.WriteBytesMessage, MessageCodec.ReadBytesMessage, "BytesMessage (1 KiB)"),
        EncoderCase.Of(Messages.Records1K, MessageCodec.WriteRecordsMessage, MessageCodec.ReadRecordsMessage, "RecordsMessage (1,000 records)"),
        EncoderCase.Of(Messages.Text1K, MessageCodec.WriteStringMessage, MessageCodec.ReadStringMessage, "StringMessage (1,000 chars)"),
        EncoderCase.Of(Messages.Length, MessageCodec.WriteLengthReply, MessageCodec.ReadLengthReply),

        // No raw figure: MessageCodec has no RpcFault codec. The pipe refuses a call with the error
        // code in the reply header and the message as bare UTF-8 (PipeConnection.WriteError), so
        // RawPipe is left out for this DTO (EncoderBenchmarksConfig) and its ratios stay empty.
        // The WCF figures are the fault detail's serializer as a message body; a real refusal wraps
        // it in a SOAP fault (FaultException<RpcFault>), whose code and reason add to that.
        EncoderCase.WithoutRawCodec(Messages.NotFound),
    ];

    [Benchmark(Baseline = true)]
    public object RawPipe() => Case.RawRoundTrip(_frame);

    [Benchmark]
    public object ProtobufNet()
    {
        _stream.SetLength(0);
        RuntimeTypeModel.Default.Serialize(_stream, Case.Message);
        return RuntimeTypeModel.Default.Deserialize(Case.Type, new ReadOnlyMemory<byte>(_stream.GetBuffer(), 0, (int)_stream.Length))!;
    }

    [Benchmark]
    public object WcfBinaryMessage() => MessageRoundTrip(_binary);

    [Benchmark]
    public object WcfTextMessage() => MessageRoundTrip(_text);

    // As a binding sends a reply: a message with the DTO as its DataContract body, written into a
    // pooled buffer, read back and its body deserialized.
    private object MessageRoundTrip(MessageEncoder encoder)
    {
        // SOAP 1.1 without WS-Addressing (BasicHttp) carries the action in the HTTP SOAPAction
        // header, not in the envelope: such a message has none.
        var action = encoder.MessageVersion.Addressing == AddressingVersion.None ? null : "urn:rpccompare:v1/benchmark";
        var message = Message.CreateMessage(encoder.MessageVersion, action, Case.Message, Case.Serializer);
        var encoded = encoder.WriteMessage(message, int.MaxValue, _buffers);
        var received = encoder.ReadMessage(encoded, _buffers);
        try
        {
            return received.GetBody<object>(Case.Serializer);
        }
        finally
        {
            // Closing the read message returns the buffer to the pool.
            received.Close();
        }
    }
}

/// <summary>
/// Leaves out <see cref="EncoderBenchmarks.RawPipe"/> for the DTOs the pipe's codec does not encode,
/// and prints the DTO names whole (BenchmarkDotNet cuts parameter values at 20 characters).
/// </summary>
public sealed class EncoderBenchmarksConfig : ManualConfig
{
    public EncoderBenchmarksConfig()
    {
        AddFilter(new SimpleFilter(benchmark =>
            benchmark.Descriptor.WorkloadMethod.Name != nameof(EncoderBenchmarks.RawPipe)
            || benchmark.Parameters[nameof(EncoderBenchmarks.Case)] is EncoderCase { HasRawCodec: true }));
        WithSummaryStyle(SummaryStyle.Default.WithMaxParameterColumnWidth(40));
    }
}

/// <summary>One DTO with what each encoding needs to round-trip it.</summary>
public sealed class EncoderCase
{
    private readonly Func<FrameBuffer, object>? _raw;
    private readonly string _name;

    private EncoderCase(string name, object message, Func<FrameBuffer, object>? raw)
    {
        _name = name;
        Message = message;
        _raw = raw;
        Serializer = new DataContractSerializer(message.GetType());
    }

    public object Message { get; }

    public Type Type => Message.GetType();

    public DataContractSerializer Serializer { get; }

    /// <summary>Whether the raw pipe's <see cref="MessageCodec"/> encodes this DTO.</summary>
    public bool HasRawCodec => _raw is not null;

    internal static EncoderCase Of<T>(T message, PayloadEncoder<T> encode, PayloadDecoder<T> decode, string? name = null)
        where T : class =>
        new(name ?? typeof(T).Name, message, frame =>
        {
            frame.Reset();
            encode(frame, message);
            return MessageCodec.Decode(frame.Complete(0).Span[PipeFrame.HeaderSize..], decode);
        });

    internal static EncoderCase WithoutRawCodec<T>(T message, string? name = null)
        where T : class =>
        new(name ?? typeof(T).Name, message, null);

    internal object RawRoundTrip(FrameBuffer frame) =>
        _raw is null ? throw new InvalidOperationException($"The raw pipe does not encode {_name}.") : _raw(frame);

    public override string ToString() => _name;
}
