namespace RpcCompare.Bindings;

/// <summary>
/// The server side of one binding, as a host sees it. Registered as a hosted service; once the
/// host has started, <see cref="Address"/> is where clients reach it.
/// </summary>
public interface IBindingServer
{
    string Name { get; }

    /// <summary>The address a client passes to the factory; null until the listener is ready.</summary>
    string? Address { get; }
}
