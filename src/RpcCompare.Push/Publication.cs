using RpcCompare.Contracts.Push;

namespace RpcCompare.Push;

/// <summary>
/// One accepted publication, shared by every subscriber queue it is put in. A binding that can
/// send bytes it serialized before asks for <see cref="Encoded{T}"/>: the first subscriber's
/// pump serializes, every other one sends the same bytes (the original's "serialize once, send copies").
/// </summary>
public sealed class Publication
{
    private readonly Lock _lock = new();
    private readonly TopicRegistry _registry;
    private (object Format, object Value)[] _encoded = [];

    internal Publication(Notification notification, TopicRegistry registry)
    {
        Notification = notification;
        _registry = registry;
    }

    /// <summary>The notification, its sequence number set. Shared: never modify it.</summary>
    public Notification Notification { get; }

    /// <summary>How many times any format was serialized for this publication (once per format used).</summary>
    public int Encodings => Volatile.Read(ref _encoded).Length;

    /// <summary>The notification in <paramref name="format"/>, serialized on first use and kept.</summary>
    public T Encoded<T>(PublicationFormat<T> format)
        where T : class
    {
        ArgumentNullException.ThrowIfNull(format);
        foreach (var (known, value) in Volatile.Read(ref _encoded))
        {
            if (ReferenceEquals(known, format))
            {
                return (T)value;
            }
        }

        lock (_lock)
        {
            foreach (var (known, value) in _encoded)
            {
                if (ReferenceEquals(known, format))
                {
                    return (T)value;
                }
            }

            var encoded = format.Encode(Notification);
            _registry.CountEncoding();
            Volatile.Write(ref _encoded, [.. _encoded, (format, encoded)]);
            return encoded;
        }
    }
}
