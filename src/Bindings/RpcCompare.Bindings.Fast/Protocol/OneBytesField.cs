using System.Diagnostics.CodeAnalysis;
using System.Linq.Expressions;
using System.Reflection;
using RpcCompare.Protobuf.Messages;

namespace RpcCompare.Bindings.Fast.Protocol;

/// <summary>
/// Reads a large body of a message that is one <c>bytes</c> field, number 1 (the payload suites' BytesMessage), into
/// an array allocated without clearing it. protobuf-net allocates a cleared array and copies into it, and at 248,832 B
/// the clearing costs more than the copy (measured here: 32 µs a read through protobuf-net, of which 21 µs the
/// cleared allocation, against 8 µs for the copy alone). The result is what protobuf-net reads: the message is made by
/// protobuf-net from no bytes at all (its constructor or factory, as the model says), then given the array.
/// </summary>
/// <remarks>
/// Only the exact shape takes this path: a type the model gives one field, number 1, of type <c>byte[]</c>, no base type,
/// subtypes, callbacks or serializer of its own; a body that is that field once, with a length that ends the body; and
/// a new message whose field is empty (protobuf-net appends to bytes already there). Anything else, malformed bodies
/// included, is read (and refused) by protobuf-net as before.
/// </remarks>
internal static class OneBytesField<T>
{
    /// <summary>Bodies below this are left to protobuf-net: a small cleared allocation costs next to nothing.</summary>
    public const int MinimumBody = 16 * 1024;

    // Field 1, wire type 2 (length-delimited).
    private const byte Tag = (1 << 3) | 2;

    private static readonly Accessors? Field = Plan();

    /// <summary>True when <typeparamref name="T"/> has the shape this reads (whatever the body).</summary>
    public static bool Applies => Field is not null;

    public static bool TryRead(ReadOnlySpan<byte> body, [MaybeNullWhen(false)] out T message)
    {
        message = default;
        if (Field is not { } field || body.Length < MinimumBody || body[0] != Tag || !TryReadLength(body, out var start, out var length) || start + length != body.Length)
        {
            return false;
        }

        var created = ProtobufModel.Model.Deserialize<T>(ReadOnlySpan<byte>.Empty);
        if (field.Get(created) is { Length: > 0 })
        {
            return false;
        }

        var data = GC.AllocateUninitializedArray<byte>(length);
        body[start..].CopyTo(data);
        field.Set(created, data);
        message = created;
        return true;
    }

    // The field's length: a varint of at most 5 bytes after the tag, below 2 GiB.
    private static bool TryReadLength(ReadOnlySpan<byte> body, out int start, out int length)
    {
        ulong value = 0;
        for (var i = 1; i <= 5 && i < body.Length; i++)
        {
            value |= (ulong)(body[i] & 0x7F) << (7 * (i - 1));
            if ((body[i] & 0x80) == 0)
            {
                start = i + 1;
                length = value <= int.MaxValue ? (int)value : -1;
                return length >= 0;
            }
        }

        start = length = 0;
        return false;
    }

    private static Accessors? Plan()
    {
        if (typeof(T).IsValueType)
        {
            return null;
        }

        try
        {
            return ProtobufModel.Model.CanSerializeContractType(typeof(T)) ? Plan(ProtobufModel.Model[typeof(T)]) : null;
        }
        catch (Exception)
        {
            // Whatever fails here leaves the type to protobuf-net, which reads it, or says what is wrong with it, as
            // before: escaping, it would fail this type initializer, and with it every large read of the type for good.
            return null;
        }
    }

    private static Accessors? Plan(ProtoBuf.Meta.MetaType meta)
    {
        if (meta.BaseType is not null || meta.HasSubtypes || meta.HasCallbacks || meta.SerializerType is not null || meta.IsGroup)
        {
            return null;
        }

        var fields = meta.GetFields();
        if (fields is not [{ FieldNumber: 1, MemberType: var type, Member: var member }] || type != typeof(byte[]) || !Writable(member))
        {
            return null;
        }

        var instance = Expression.Parameter(typeof(T), "message");
        var value = Expression.Parameter(typeof(byte[]), "value");
        var access = Expression.MakeMemberAccess(instance, member);
        return new Accessors(
            Expression.Lambda<Func<T, byte[]?>>(access, instance).Compile(),
            Expression.Lambda<Action<T, byte[]>>(Expression.Assign(access, value), instance, value).Compile());
    }

    private static bool Writable(MemberInfo member) => member switch
    {
        PropertyInfo property => property.CanRead && property.CanWrite,
        FieldInfo field => !field.IsInitOnly,
        _ => false,
    };

    private sealed record Accessors(Func<T, byte[]?> Get, Action<T, byte[]> Set);
}
