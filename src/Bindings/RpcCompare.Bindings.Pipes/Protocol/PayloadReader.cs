using System.Buffers.Binary;
using System.Text;

namespace RpcCompare.Bindings.Pipes.Protocol;

/// <summary>
/// Reads a frame body. Every length read from the wire is checked against the bytes actually
/// left before anything is allocated, so a hostile count cannot make the reader allocate gigabytes.
/// </summary>
internal ref struct PayloadReader
{
    // Strict, so malformed UTF-8 is refused rather than silently replaced.
    private static readonly UTF8Encoding s_utf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);
    private readonly ReadOnlySpan<byte> _body;
    private int _position;

    public PayloadReader(ReadOnlySpan<byte> body)
    {
        _body = body;
        _position = 0;
    }

    public readonly int Remaining => _body.Length - _position;

    public byte ReadByte() => Take(1)[0];

    public bool ReadBoolean() => ReadByte() switch
    {
        0 => false,
        1 => true,
        var other => throw new PipeProtocolException($"Expected a boolean (0 or 1), found {other}."),
    };

    public int ReadInt32() => BinaryPrimitives.ReadInt32LittleEndian(Take(4));

    public long ReadInt64() => BinaryPrimitives.ReadInt64LittleEndian(Take(8));

    public double ReadDouble() => BinaryPrimitives.ReadDoubleLittleEndian(Take(8));

    public byte[] ReadBytes() => Take(ReadLength(1)).ToArray();

    public string ReadString()
    {
        var bytes = Take(ReadLength(1));
        try
        {
            return s_utf8.GetString(bytes);
        }
        catch (DecoderFallbackException)
        {
            throw new PipeProtocolException("A string is not valid UTF-8.");
        }
    }

    /// <summary>Reads an element count and checks that many elements of at least <paramref name="minElementSize"/> bytes can follow.</summary>
    public int ReadLength(int minElementSize)
    {
        var count = ReadInt32();
        if (count < 0 || (long)count * minElementSize > Remaining)
        {
            throw new PipeProtocolException($"A length of {count} does not fit in the {Remaining} bytes left in the frame.");
        }

        return count;
    }

    public ReadOnlySpan<byte> Take(int count)
    {
        if (count > Remaining)
        {
            throw new PipeProtocolException($"The frame body ends early: needed {count} more bytes, {Remaining} left.");
        }

        var span = _body.Slice(_position, count);
        _position += count;
        return span;
    }

    /// <summary>Trailing bytes mean the two sides disagree on the format: refuse rather than guess.</summary>
    public readonly void EnsureEnd()
    {
        if (Remaining != 0)
        {
            throw new PipeProtocolException($"The frame body has {Remaining} unexpected trailing bytes.");
        }
    }
}
