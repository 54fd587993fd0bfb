using System.Buffers;
using System.Buffers.Binary;
using System.Runtime.InteropServices;
using RpcCompare.Bindings.Pipes.Protocol;

namespace RpcCompare.Bindings.Pipes.Tests;

/// <summary>
/// The connection's reusable buffer: it grows by doubling and copies what it holds, keeps a buffer
/// up to 1 MiB between frames, gives a larger one back, and returns every array it rents to the
/// shared pool. Pool hand-backs are seen the way the pool shows them: on one thread, the array
/// returned last is the one rented next.
/// </summary>
public sealed class FrameBufferTests
{
    private const int HeaderSize = PipeFrame.HeaderSize;

    [Fact]
    public void Writes_FollowTheReservedHeader_AndCompleteFillsItIn()
    {
        using var buffer = new FrameBuffer();

        buffer.WriteByte(7);
        buffer.WriteBoolean(true);
        buffer.WriteBoolean(false);
        buffer.WriteInt32(-2);
        buffer.WriteInt64(long.MinValue);
        buffer.WriteDouble(0.25);
        buffer.WriteBytes([9, 8]);
        buffer.WriteString("é");
        buffer.WriteString(null);
        var frame = buffer.Complete(0x42).ToArray();

        byte[] body =
        [
            7, 1, 0,
            .. Le32(-2), .. Le64(long.MinValue), .. BitConverter.GetBytes(0.25),
            .. Le32(2), 9, 8,
            .. Le32(2), 0xC3, 0xA9,
            .. Le32(0),
        ];
        Assert.Equal([.. Le32(body.Length), 0x42, .. body], frame);
        Assert.Equal(body.Length, buffer.BodyLength);
    }

    [Fact]
    public void ABodyFillingTheStartingBufferExactly_DoesNotGrowIt()
    {
        using var buffer = new FrameBuffer();
        var start = ArrayOf(buffer);

        buffer.Reserve(start.Length - HeaderSize);

        Assert.Same(start, ArrayOf(buffer));
    }

    [Fact]
    public void Growing_DoublesTheBuffer_KeepsWhatWasWritten_AndReturnsTheOldArray()
    {
        using var buffer = new FrameBuffer();
        var start = ArrayOf(buffer);
        buffer.WriteInt32(0x01020304);

        buffer.Reserve(start.Length);

        var grown = ArrayOf(buffer);
        Assert.Equal(start.Length * 2, grown.Length);
        Assert.Equal(0x01020304, BinaryPrimitives.ReadInt32LittleEndian(grown.AsSpan(HeaderSize)));
        Assert.Same(start, ArrayPool<byte>.Shared.Rent(start.Length));
    }

    [Fact]
    public void AWriteLargerThanDouble_GrowsToWhatItNeeds()
    {
        using var buffer = new FrameBuffer();

        buffer.Reserve(100_000);

        // The pool rounds up to a power of two: 131,072 is the smallest that holds header and body.
        Assert.Equal(131_072, ArrayOf(buffer).Length);
    }

    [Fact]
    public void Reset_KeepsABufferOfUpTo1MiB()
    {
        using var buffer = new FrameBuffer();
        buffer.Reserve((1024 * 1024) - HeaderSize);
        var kept = ArrayOf(buffer);

        buffer.Reset();

        Assert.Equal(1024 * 1024, kept.Length);
        Assert.Same(kept, ArrayOf(buffer));
        Assert.Equal(0, buffer.BodyLength);
    }

    [Fact]
    public void Reset_GivesALargerBufferBackToThePool_AndStartsSmallAgain()
    {
        using var buffer = new FrameBuffer();
        buffer.Reserve(1024 * 1024);
        var large = ArrayOf(buffer);

        buffer.Reset();

        Assert.Equal(4096, ArrayOf(buffer).Length);
        Assert.Same(large, ArrayPool<byte>.Shared.Rent(large.Length));
    }

    [Fact]
    public void Dispose_ReturnsTheBufferToThePool()
    {
        var buffer = new FrameBuffer();
        var array = ArrayOf(buffer);

        buffer.Dispose();

        Assert.Same(array, ArrayPool<byte>.Shared.Rent(array.Length));
    }

    [Fact]
    public void ReceiveRoom_KeepsTheBytesReceivedSoFar_WhileGrowingWithWhatArrives()
    {
        using var buffer = new FrameBuffer();

        buffer.ReceiveRoom(0, 200_000).Span[..3].Fill(1);
        var second = buffer.ReceiveRoom(65_536, 200_000 - 65_536);
        second.Span[0] = 2;

        var body = buffer.ReceivedBody(65_537).Span;
        Assert.Equal(65_536, second.Length);
        Assert.Equal([1, 1, 1], body[..3].ToArray());
        Assert.Equal(2, body[65_536]);
    }

    [Fact]
    public void ReceiveBody_StartsAFrameOfThatLength_DroppingAnOversizedBuffer()
    {
        using var buffer = new FrameBuffer();
        buffer.Reserve(2 * 1024 * 1024);

        var body = buffer.ReceiveBody(10);

        Assert.Equal(10, body.Length);
        Assert.Equal(0, buffer.BodyLength);
        Assert.Equal(4096, ArrayOf(buffer).Length);
    }

    [Fact]
    public void AFrameLargerThanAnArrayCanHold_IsRefusedBeforeAnythingIsAllocated()
    {
        using var buffer = new FrameBuffer();

        var error = Assert.Throws<InvalidOperationException>(() => buffer.ReceiveRoom(int.MaxValue - 10, 10));

        Assert.Equal($"A frame of {(long)int.MaxValue - 10 + 10 + HeaderSize} bytes cannot be buffered.", error.Message);
    }

    private static byte[] ArrayOf(FrameBuffer buffer) =>
        MemoryMarshal.TryGetArray<byte>(buffer.Header, out var segment) ? segment.Array! : throw new InvalidOperationException("not array-backed");

    private static byte[] Le32(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
        return bytes;
    }

    private static byte[] Le64(long value)
    {
        var bytes = new byte[8];
        BinaryPrimitives.WriteInt64LittleEndian(bytes, value);
        return bytes;
    }
}
