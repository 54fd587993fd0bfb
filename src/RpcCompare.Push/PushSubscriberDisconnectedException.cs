namespace RpcCompare.Push;

/// <summary>The server ended a subscription because its subscriber fell too far behind.</summary>
public sealed class PushSubscriberDisconnectedException : Exception
{
    public PushSubscriberDisconnectedException(string message)
        : base(message)
    {
    }

    public PushSubscriberDisconnectedException()
    {
    }

    public PushSubscriberDisconnectedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
