using System.ServiceModel;

namespace RpcCompare.ContractCorpus;

// Contracts WCF's own loader refuses; the model refuses them with WCF's message.

/// <summary>Overloads without [OperationContract(Name)].</summary>
[ServiceContract]
public interface IOverloadsWithoutNames
{
    [OperationContract]
    int Add(int a, int b);

    [OperationContract]
    double Add(double a, double b);
}

/// <summary>A C# in parameter: by reference but not out.</summary>
[ServiceContract]
public interface IInParameter
{
    [OperationContract]
    void Log(in int level);
}

/// <summary>A one-way operation cannot return a value.</summary>
[ServiceContract]
public interface IOneWayWithReturn
{
    [OperationContract(IsOneWay = true)]
    int Fire();
}

/// <summary>A one-way operation cannot have an out parameter.</summary>
[ServiceContract]
public interface IOneWayWithOut
{
    [OperationContract(IsOneWay = true)]
    void Fire(out int count);
}

/// <summary>[OperationContract] on an interface that is not a service contract.</summary>
public interface IUnattributedBase
{
    [OperationContract]
    void Ping();
}

[ServiceContract]
public interface IDerivedFromUnattributed : IUnattributedBase
{
    [OperationContract]
    void Pong();
}

/// <summary>No [ServiceContract] at all.</summary>
public interface INotAContract
{
    void Ping();
}

/// <summary>A class, not an interface.</summary>
[ServiceContract]
public class ContractClass
{
    [OperationContract]
    public void Ping()
    {
    }
}
