using System.Runtime.Serialization;
using System.ServiceModel;

namespace RpcCompare.Samples.Services.Orders;

/// <summary>A Task-based line-of-business contract: [DataMember] without Order, a nested list, a declared fault.</summary>
[ServiceContract(Namespace = "http://samples.rpccompare/orders")]
public interface IOrderService
{
    /// <summary>Stores the order and returns its number.</summary>
    [OperationContract]
    [FaultContract(typeof(OrderFault))]
    Task<int> PlaceOrderAsync(Order order);

    [OperationContract]
    [FaultContract(typeof(OrderFault))]
    Task<Order> GetOrderAsync(int orderNumber);
}

[DataContract(Namespace = "http://samples.rpccompare/orders")]
public sealed class Order
{
    [DataMember]
    public string Customer { get; set; } = "";

    [DataMember]
    public List<OrderLine> Lines { get; set; } = [];
}

[DataContract(Namespace = "http://samples.rpccompare/orders")]
public sealed class OrderLine
{
    [DataMember]
    public string Sku { get; set; } = "";

    [DataMember]
    public int Quantity { get; set; }

    [DataMember]
    public decimal UnitPrice { get; set; }
}

[DataContract(Namespace = "http://samples.rpccompare/orders")]
public sealed class OrderFault
{
    [DataMember]
    public string Reason { get; set; } = "";
}
