using RpcCompare.Contracts.Push;

namespace RpcCompare.Push;

/// <summary>A wire format a binding sends publications in; one instance per format, kept for the binding's lifetime.</summary>
public sealed class PublicationFormat<T>
    where T : class
{
    private readonly Func<Notification, T> _encode;

    /// <param name="name">For diagnostics: "pipes frame", "SOAP message buffer".</param>
    /// <param name="encode">Serializes one notification; called once per publication.</param>
    public PublicationFormat(string name, Func<Notification, T> encode)
    {
        Name = name;
        _encode = encode;
    }

    public string Name { get; }

    internal T Encode(Notification notification) => _encode(notification);

    public override string ToString() => Name;
}
