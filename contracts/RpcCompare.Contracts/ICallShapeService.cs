namespace RpcCompare.Contracts;

/// <summary>
/// The call shapes of the add-in isolation measurement: what a call costs as its
/// signature grows from nothing to a small struct.
/// </summary>
public interface ICallShapeService
{
    /// <summary>void(): no argument, no result.</summary>
    Task VoidCallAsync();

    /// <summary>void(int).</summary>
    Task TakeIntAsync(IntMessage request);

    /// <summary>int().</summary>
    Task<IntMessage> ReturnIntAsync();

    /// <summary>int(int): returns the argument plus one, so a binding that drops the value shows.</summary>
    Task<IntMessage> IncrementAsync(IntMessage request);

    /// <summary>void(struct): a few numeric fields in, nothing out.</summary>
    Task TakePointAsync(PointMessage request);
}
