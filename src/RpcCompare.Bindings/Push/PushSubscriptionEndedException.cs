namespace RpcCompare.Bindings.Push;

/// <summary>A subscription ended without the subscriber asking: the server dropped it (its queue was full) or the connection broke.</summary>
public sealed class PushSubscriptionEndedException : Exception
{
    public PushSubscriptionEndedException(string message)
        : base(message)
    {
    }

    public PushSubscriptionEndedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    public PushSubscriptionEndedException()
    {
    }
}
