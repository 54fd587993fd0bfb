using System.Runtime.Serialization;
using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

/// <summary>A Task-based line-of-business contract with a nested list and a typed fault.</summary>
[ServiceContract(Namespace = "urn:corpus:orders")]
public interface IOrderService
{
    [OperationContract]
    [FaultContract(typeof(OrderFault))]
    Task<int> PlaceOrderAsync(Order order);

    [OperationContract]
    Task CancelOrderAsync(int orderId);
}

[DataContract(Namespace = "urn:corpus:orders")]
public class Order
{
    [DataMember]
    public string Customer { get; set; } = "";

    [DataMember]
    public List<OrderLine> Lines { get; set; } = [];
}

[DataContract(Namespace = "urn:corpus:orders")]
public class OrderLine
{
    [DataMember]
    public string Sku { get; set; } = "";

    [DataMember]
    public int Quantity { get; set; }

    [DataMember]
    public decimal UnitPrice { get; set; }
}

[DataContract(Namespace = "urn:corpus:orders")]
public class OrderFault
{
    [DataMember]
    public string Reason { get; set; } = "";

    [DataMember]
    public string? Sku { get; set; }
}
