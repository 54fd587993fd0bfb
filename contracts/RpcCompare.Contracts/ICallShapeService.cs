using System.ServiceModel;

namespace RpcCompare.Contracts;

/// <summary>
/// The call shapes of the add-in isolation measurement: what a call costs as its
/// signature grows from nothing to a small struct.
/// </summary>
[ServiceContract(Name = ServiceNames.CallShapeService, Namespace = ServiceNames.Namespace)]
public interface ICallShapeService
{
    /// <summary>void(): no argument, no result.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task VoidCallAsync();

    /// <summary>void(int).</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task TakeIntAsync(IntMessage request);

    /// <summary>int().</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<IntMessage> ReturnIntAsync();

    /// <summary>int(int): returns the argument plus one, so a binding that drops the value shows.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task<IntMessage> IncrementAsync(IntMessage request);

    /// <summary>void(struct): a few numeric fields in, nothing out.</summary>
    [OperationContract]
    [FaultContract(typeof(RpcFault), Action = ServiceNames.FaultAction)]
    Task TakePointAsync(PointMessage request);
}
