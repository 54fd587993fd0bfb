using System.Buffers;
using System.Runtime.Serialization;
using RpcCompare.Bindings.Fast.Protocol;
using RpcCompare.Contracts;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Fast.Tests;

/// <summary>
/// The large one-bytes-field read (<see cref="OneBytesField{T}"/>) gives what protobuf-net gives, takes only the
/// exact shape, and leaves every other body, malformed ones included, to protobuf-net.
/// </summary>
public sealed class OneBytesFieldTests
{
    [Theory]
    [InlineData(OneBytesField<BytesMessage>.MinimumBody)]
    [InlineData(248_832)]
    [InlineData(1_048_576)]
    public void ALargeBytesMessage_IsReadWithoutProtobufNet_AsProtobufNetReadsIt(int size)
    {
        var body = Serialize(new BytesMessage { Data = Pattern(size) });

        Assert.True(OneBytesField<BytesMessage>.TryRead(body, out var read));
        Assert.Equal(Pattern(size), read.Data);
        Assert.Equal(ProtobufModel.Model.Deserialize<BytesMessage>(body.AsSpan()).Data, Body.ReadMessage<BytesMessage>(body).Data);
    }

    [Fact]
    public void ASmallBody_IsLeftToProtobufNet()
    {
        var body = Serialize(new BytesMessage { Data = Pattern(1_000) });

        Assert.False(OneBytesField<BytesMessage>.TryRead(body, out _));
        Assert.Equal(Pattern(1_000), Body.ReadMessage<BytesMessage>(body).Data);
    }

    [Fact]
    public void TheFieldTwice_IsLeftToProtobufNet_AndReadAsItReadsIt()
    {
        var body = Serialize(new BytesMessage { Data = Pattern(20_000) }).Concat(Serialize(new BytesMessage { Data = Pattern(30_000) })).ToArray();

        Assert.False(OneBytesField<BytesMessage>.TryRead(body, out _));
        Assert.Equal(ProtobufModel.Model.Deserialize<BytesMessage>(body.AsSpan()).Data, Body.ReadMessage<BytesMessage>(body).Data);
    }

    [Fact]
    public void ATruncatedBody_IsRefusedByProtobufNet_AsBefore()
    {
        var body = Serialize(new BytesMessage { Data = Pattern(100_000) })[..50_000];

        Assert.False(OneBytesField<BytesMessage>.TryRead(body, out _));
        var expected = Assert.ThrowsAny<Exception>(() => ProtobufModel.Model.Deserialize<BytesMessage>(body.AsSpan()));
        Assert.IsType(expected.GetType(), Assert.ThrowsAny<Exception>(() => Body.ReadMessage<BytesMessage>(body)));
    }

    [Fact]
    public void AnOverlongLength_IsNotTakenForTheField()
    {
        // Tag, then a varint of six bytes: no int length is written so.
        byte[] body = [0x0A, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, .. new byte[20_000]];

        Assert.False(OneBytesField<BytesMessage>.TryRead(body, out _));
    }

    [Fact]
    public void AMessageWhoseConstructorFillsTheField_IsLeftToProtobufNet_WhichAppends()
    {
        var body = Serialize(new BytesMessage { Data = Pattern(20_000) });

        Assert.True(OneBytesField<Prefilled>.Applies);
        Assert.False(OneBytesField<Prefilled>.TryRead(body, out _));
        Assert.Equal(ProtobufModel.Model.Deserialize<Prefilled>(body.AsSpan()).Data, Body.ReadMessage<Prefilled>(body).Data);
    }

    [Fact]
    public void OnlyTheExactShape_Applies()
    {
        Assert.True(OneBytesField<BytesMessage>.Applies);
        Assert.False(OneBytesField<BytesAndNumber>.Applies);
        Assert.False(OneBytesField<BytesAsFieldTwo>.Applies);
        Assert.False(OneBytesField<StringMessage>.Applies);
        Assert.False(OneBytesField<int>.Applies);
    }

    private static byte[] Serialize<T>(T message)
    {
        var writer = new ArrayBufferWriter<byte>();
        Body.WriteMessage(writer, message);
        return writer.WrittenSpan.ToArray();
    }

    private static byte[] Pattern(int size) => [.. Enumerable.Range(0, size).Select(i => (byte)(i * 7))];

    [DataContract]
    public sealed class Prefilled
    {
        [DataMember(Order = 1)]
        public byte[] Data { get; set; } = [1, 2, 3];
    }

    [DataContract]
    public sealed class BytesAndNumber
    {
        [DataMember(Order = 1)]
        public byte[] Data { get; set; } = [];

        [DataMember(Order = 2)]
        public int Number { get; set; }
    }

    [DataContract]
    public sealed class BytesAsFieldTwo
    {
        [DataMember(Order = 2)]
        public byte[] Data { get; set; } = [];
    }
}
