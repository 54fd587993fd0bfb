using System.Runtime.Serialization;
using System.ServiceModel;

namespace RpcCompare.Samples.Services.Calculator;

/// <summary>The calculator of WCF's "Getting Started" tutorial: synchronous, several primitive parameters.</summary>
[ServiceContract(Namespace = "http://samples.rpccompare/calculator")]
public interface ICalculator
{
    [OperationContract]
    double Add(double n1, double n2);

    [OperationContract]
    double Subtract(double n1, double n2);

    [OperationContract]
    double Multiply(double n1, double n2);

    /// <summary>Divides; a zero divisor is a declared fault, as WCF services report bad input.</summary>
    [OperationContract]
    [FaultContract(typeof(MathFault))]
    double Divide(double n1, double n2);

    /// <summary>Adds a list of numbers and says how many there were: an out parameter.</summary>
    [OperationContract]
    double Sum(double[] values, out int count);
}

[DataContract(Namespace = "http://samples.rpccompare/calculator")]
public sealed class MathFault
{
    [DataMember]
    public string Operation { get; set; } = "";

    [DataMember]
    public string Problem { get; set; } = "";
}
